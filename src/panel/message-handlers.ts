import type { McpElicitationAnswer } from '../core/mcp/mcp-elicitation.js';
import type { McpRegistryBrowser } from './mcp-registry-browser.js';
import type { HostMessage, WebviewRequest } from '../shared/protocol.js';
import type { TaskController } from './task-controller.js';
import type { PanelReplays } from './task-replays.js';
import type { PanelBisects } from './task-bisect.js';

/**
 * One small handler per request type; the messenger replies ok when it returns and the error when
 * it throws. What a handler gives `answer` goes to the asking webview alone (a page of older
 * messages), just before the reply.
 */
export type RequestHandlers = {
  readonly [K in WebviewRequest['type']]: (
    message: Extract<WebviewRequest, { readonly type: K }>,
    answer?: (message: HostMessage) => void,
  ) => Promise<void> | void;
};

/** What the MCP view's requests act on (McpService). */
export interface McpRequests {
  restart(server: string): Promise<void>;
  setDisabled(server: string, disabled: boolean): Promise<void>;
  setAutoApprove(server: string, tool: string, autoApprove: boolean): Promise<void>;
  openConfig(scope: 'global' | 'workspace'): Promise<void>;
  showLog(server: string): Promise<void>;
  /** Settles a server's form; an answer that does not match it throws (the form stays). Absent: this panel shows no forms. */
  answerElicitation?(id: string, answer: McpElicitationAnswer): void;
  /** Signs in to a remote server with OAuth. Absent: this panel has no servers to sign in to. */
  signIn?(server: string): Promise<void>;
  /** Forgets a remote server's OAuth tokens. */
  signOut?(server: string): Promise<void>;
  /** The registry browser (absent: this panel cannot browse the registry). */
  readonly registry?: Pick<McpRegistryBrowser, 'search' | 'install'>;
}

/** The panel's requests, mapped onto the task controller, the MCP servers, the replays and the bisects. */
export function createMessageHandlers(
  controller: TaskController,
  mcp: McpRequests,
  replays?: Pick<PanelReplays, 'start'>,
  bisects?: Pick<PanelBisects, 'start'>,
): RequestHandlers {
  return {
    newTask: (m) =>
      controller.newTask(m.text, m.images, {
        worktree:
          m.worktree === true
            ? { ...(m.worktreeName !== undefined ? { name: m.worktreeName } : {}), ...(m.worktreeBase !== undefined ? { base: m.worktreeBase } : {}) }
            : false,
      }),
    listBaseBranches: () => controller.listRequests.listBaseBranches(),
    worktreeAction: (m) => controller.worktreeAction(m.taskId, m.action),
    sendMessage: (m) => controller.sendMessage(m.text, m.images, m.taskId),
    approve: (m) =>
      m.alwaysAllow
        ? controller.approveAlways(m.callId, m.alwaysAllow, m.feedback, m.taskId)
        : controller.conversation.answerApproval(m.callId, true, m.feedback, m.all === true, m.taskId, m.applyPreview === true),
    previewCommand: (m) => controller.conversation.previewCommand(m.callId, m.taskId),
    reject: (m) => controller.conversation.answerApproval(m.callId, false, m.feedback, false, m.taskId),
    answer: (m) => controller.conversation.answerQuestion(m.text, m.taskId),
    steerMessage: (m) => controller.conversation.steer(m.text, m.taskId),
    editTodos: (m) => controller.actions.editTodos(m.taskId, m.items),
    condense: (m) => controller.actions.condense(m.taskId),
    setAutoApprove: (m) => controller.listRequests.saveAutoApprove(m.change),
    updateQueued: (m) => controller.conversation.updateQueued(m.index, m.was, m.text, m.taskId),
    cancelTask: (m) => controller.cancel(m.taskId),
    closeTask: (m) => controller.closeTask(m.taskId),
    proceedCommand: (m) => controller.conversation.proceedWhileRunning(m.callId, m.taskId),
    stopSubagent: (m) => controller.conversation.stopSubagent(m.taskId),
    openSubagentChat: (m) => controller.openSubagentChat(m.taskId),
    closeSubagentChat: () => controller.closeSubagentChat(),
    retry: (m) => controller.retry(m.taskId),
    setMode: (m) => controller.setMode(m.mode),
    setModeSlug: (m) => controller.setModeSlug(m.modeSlug),
    showView: (m) => controller.viewOpened(m.view),
    returnPendingTask: () => controller.returnPendingTask(),
    saveSettings: ({ type: _type, id: _id, ...choice }) => controller.saveSettings(choice),
    listModels: (m) => controller.listRequests.listModels(m.provider, m.baseUrl),
    suggestMentions: (m) => controller.listRequests.suggestMentions(m.query),
    suggestCommands: (m) => controller.listRequests.suggestCommands(m.query),
    setRuleEnabled: (m) => controller.listRequests.setRuleEnabled(m.label, m.enabled),
    setSkillEnabled: (m) => controller.listRequests.setSkillEnabled(m.name, m.enabled),
    openTask: (m) => controller.openTask(m.taskId),
    olderMessages: (m, answer) => answer?.({ type: 'olderMessages', taskId: m.taskId, before: m.before, ...controller.olderMessages(m.taskId, m.before) }),
    deleteTask: (m) => controller.deleteTask(m.taskId),
    exportTask: (m) => controller.exportTask(m.taskId),
    replayTask: (m) => {
      if (!replays) throw new Error('Replays are not available here.');
      return replays.start(m.taskId, m.model);
    },
    bisectTask: (m) => {
      if (!bisects) throw new Error('Bisecting is not available here.');
      return bisects.start(m.taskId);
    },
    compareCheckpoint: (m) => controller.actions.compareCheckpoint(m.taskId, m.checkpointId),
    openScreenshot: (m) => controller.actions.openScreenshot(m.taskId, m.callId),
    restoreCheckpoint: (m) => controller.actions.restoreCheckpoint(m.taskId, m.checkpointId, m.scope),
    editMessage: (m) => controller.actions.editMessage(m.taskId, m.seq, m.text, m.restoreFiles),
    mcpRestart: (m) => mcp.restart(m.server),
    mcpSetDisabled: (m) => mcp.setDisabled(m.server, m.disabled),
    mcpSetAutoApprove: (m) => mcp.setAutoApprove(m.server, m.tool, m.autoApprove),
    mcpOpenConfig: (m) => mcp.openConfig(m.scope),
    mcpShowLog: (m) => mcp.showLog(m.server),
    mcpRegistrySearch: (m) => {
      if (!mcp.registry) throw new Error('This panel cannot browse the MCP Registry.');
      return mcp.registry.search(m.query, m.cursor);
    },
    mcpRegistryInstall: async (m) => {
      if (!mcp.registry) throw new Error('This panel cannot install from the MCP Registry.');
      await mcp.registry.install(m.name, m.scope, m.values, m.remote === true);
    },
    mcpAnswerElicitation: (m) => {
      if (!mcp.answerElicitation) throw new Error('This panel has no MCP servers that could ask for input.');
      mcp.answerElicitation(m.elicitationId, m.action === 'accept' ? { action: 'accept', content: m.content ?? {} } : { action: m.action });
    },
    mcpSignIn: (m) => {
      if (!mcp.signIn) throw new Error('This panel has no MCP servers to sign in to.');
      return mcp.signIn(m.server);
    },
    mcpSignOut: (m) => {
      if (!mcp.signOut) throw new Error('This panel has no MCP servers to sign out of.');
      return mcp.signOut(m.server);
    },
  };
}
