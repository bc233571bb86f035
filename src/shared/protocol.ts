import type { ShownApproval } from './tool-details.js';
import type { UiMessage, UiUsage } from './ui-messages.js';

/**
 * The extension ↔ webview protocol: one discriminated union per direction.
 * Requests carry an id and get exactly one `reply`.
 */

/** Which screen of the panel is showing. */
export const PANEL_VIEWS = ['chat', 'settings', 'history', 'mcp'] as const;
export type PanelView = (typeof PANEL_VIEWS)[number];

export type { ProviderId as ProviderName } from './providers.js';
import type { ProviderId as ProviderName } from './providers.js';

/** How the model calls tools: XML blocks in its text (any model) or the vendor's native tool calling. */
export type ToolProtocolName = 'xml' | 'native';

/** Provider settings as the panel edits them; the key itself never travels to the webview. */
export interface ProviderSettingsView {
  readonly provider: ProviderName;
  readonly model: string;
  readonly baseUrl: string;
  readonly toolProtocol: ToolProtocolName;
  /** True when a key is stored (SecretStorage) or found in the environment. */
  readonly hasApiKey: boolean;
  /** What the provider still needs before a task can run; absent or empty when it is ready. */
  readonly missing?: readonly ProviderSetupField[];
}

/** A piece of provider setup a task cannot run without. */
export type ProviderSetupField = 'apiKey' | 'baseUrl' | 'model';

/** A tool call waiting for the user's decision: the request as logged in its `approval_asked` event. */
export type PendingApproval = ShownApproval;

/** A follow-up question from the model waiting for an answer. */
export interface PendingQuestion {
  readonly question: string;
  readonly options: readonly string[];
}

/** `interrupted`: the log ends mid-run (the window was reloaded or Smith stopped); Resume continues it. */
export type TaskRunStatus = 'idle' | 'running' | 'awaiting_approval' | 'awaiting_answer' | 'completed' | 'failed' | 'aborted' | 'interrupted';

/** The open task as the chat shows it. */
export interface TaskView {
  readonly id: string;
  readonly messages: readonly UiMessage[];
  readonly usage: UiUsage;
  /** Cost in US dollars so far, when prices are known. */
  readonly cost?: number;
  readonly mode: 'plan' | 'act';
  readonly skill: string;
  readonly status: TaskRunStatus;
  readonly pendingApproval?: PendingApproval;
  readonly pendingQuestion?: PendingQuestion;
  /** The last failure, shown with a retry button. */
  readonly error?: string;
}

/** One stored task in the history list. */
export interface HistoryItem {
  readonly taskId: string;
  readonly task: string;
  readonly startedAt: number;
  readonly updatedAt: number;
  readonly status: string;
}

/** Where an MCP server stands: `connecting` may be a reconnect after a crash (see `reconnect`). */
export type McpServerStatusView = 'connecting' | 'connected' | 'error' | 'disabled';

/** One tool of an MCP server as the panel lists it (no input schema: snapshots stay small). */
export interface McpToolView {
  readonly name: string;
  /** The first paragraph of the tool's description, capped. */
  readonly description: string;
  /** Listed in the server's `autoApprove`: calls run without asking. */
  readonly autoApproved: boolean;
}

/** A resource with a fixed URI. */
export interface McpResourceView {
  readonly uri: string;
  readonly name: string;
}

/** A family of resources addressed by a URI template. */
export interface McpResourceTemplateView {
  readonly uriTemplate: string;
  readonly name: string;
}

/** One configured MCP server (valid or not) with what it offers. */
export interface McpServerView {
  readonly name: string;
  readonly status: McpServerStatusView;
  /** Why it is in error, or the last failure while it reconnects; may span lines. */
  readonly error?: string;
  /** The config file that defines it; edits from the panel go there. */
  readonly source: string;
  /** Which of the config files that is. */
  readonly scope: 'global' | 'workspace' | 'other';
  readonly disabled: boolean;
  /** stdio, streamableHttp or sse; undefined when the entry is invalid. */
  readonly transport?: string;
  readonly tools: readonly McpToolView[];
  readonly resources: readonly McpResourceView[];
  readonly resourceTemplates: readonly McpResourceTemplateView[];
  /** Set while waiting to reconnect after an unexpected exit. */
  readonly reconnect?: { readonly attempt: number; readonly maxAttempts: number };
}

/** Something wrong in an MCP config file: the whole file (no server) or one entry (and field). */
export interface McpConfigProblemView {
  readonly file: string;
  readonly server?: string;
  readonly field?: string;
  readonly message: string;
}

/** The MCP part of the panel state: every server of the window's hub and the config problems. */
export interface McpPanelState {
  readonly servers: readonly McpServerView[];
  readonly problems: readonly McpConfigProblemView[];
  /** The config files the servers come from; `workspace` is absent without an open folder. */
  readonly configFiles: { readonly global: string; readonly workspace?: string };
}

/** Everything the panel renders; sent whole on `ready` and whenever the webview was hidden. */
export interface PanelState {
  readonly view: PanelView;
  readonly task?: TaskView;
  readonly settings: ProviderSettingsView;
  readonly history: readonly HistoryItem[];
  readonly skills: readonly { readonly slug: string; readonly name: string }[];
  /** Mode to start new tasks in. */
  readonly mode: 'plan' | 'act';
  readonly skill: string;
  /** MCP servers; kept current between snapshots by `mcpState`. */
  readonly mcp: McpPanelState;
  /** A task sent before the provider was set up; it starts once the settings are saved. */
  readonly pendingTask?: string;
}

/** Messages from the webview to the extension host. */
export type WebviewMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'newTask'; readonly id: string; readonly text: string }
  | { readonly type: 'sendMessage'; readonly id: string; readonly text: string }
  | { readonly type: 'approve'; readonly id: string; readonly callId: string; readonly feedback?: string }
  | { readonly type: 'reject'; readonly id: string; readonly callId: string; readonly feedback?: string }
  | { readonly type: 'answer'; readonly id: string; readonly text: string }
  | { readonly type: 'cancelTask'; readonly id: string }
  /** Lets the running command of `callId` continue in the background while the agent goes on. */
  | { readonly type: 'proceedCommand'; readonly id: string; readonly callId: string }
  | { readonly type: 'retry'; readonly id: string }
  | { readonly type: 'setMode'; readonly id: string; readonly mode: 'plan' | 'act' }
  | { readonly type: 'setSkill'; readonly id: string; readonly skill: string }
  | { readonly type: 'showView'; readonly id: string; readonly view: PanelView }
  | {
      readonly type: 'saveSettings';
      readonly id: string;
      readonly provider: ProviderName;
      readonly model: string;
      readonly baseUrl: string;
      readonly toolProtocol: ToolProtocolName;
      /** A new key to store; omitted to keep the stored one. */
      readonly apiKey?: string;
    }
  | { readonly type: 'openTask'; readonly id: string; readonly taskId: string }
  | { readonly type: 'deleteTask'; readonly id: string; readonly taskId: string }
  | { readonly type: 'exportTask'; readonly id: string; readonly taskId: string }
  /** Reconnects a server from scratch (also after it gave up reconnecting). */
  | { readonly type: 'mcpRestart'; readonly id: string; readonly server: string }
  /** Sets `"disabled"` in the config file that defines the server; the file watcher applies it. */
  | { readonly type: 'mcpSetDisabled'; readonly id: string; readonly server: string; readonly disabled: boolean }
  /** Adds the tool to (or removes it from) the server's `autoApprove` in its config file; applies without a restart. */
  | { readonly type: 'mcpSetAutoApprove'; readonly id: string; readonly server: string; readonly tool: string; readonly autoApprove: boolean }
  /** Opens a config file in an editor, creating it with `{"mcpServers": {}}` when missing. */
  | { readonly type: 'mcpOpenConfig'; readonly id: string; readonly scope: 'global' | 'workspace' }
  /** Shows the server's recent stderr and log messages in a read-only editor. */
  | { readonly type: 'mcpShowLog'; readonly id: string; readonly server: string };

/** Messages from the extension host to the webview. */
export type HostMessage =
  | { readonly type: 'snapshot'; readonly state: PanelState }
  /** Replaces the open task's messages from `start` on (most updates touch only the tail). */
  | { readonly type: 'taskMessages'; readonly taskId: string; readonly start: number; readonly messages: readonly UiMessage[] }
  /** The assistant's message as it streams (transient, replaced by the logged one). */
  | { readonly type: 'streaming'; readonly taskId: string; readonly text: string; readonly reasoning: string }
  /** Live output of a running command. */
  | { readonly type: 'commandOutput'; readonly callId: string; readonly text: string }
  /**
   * The MCP part of the state after the window's MCP hub changed (status, lists, config), so a
   * connecting server does not resend the whole task. Coalesced; while the webview is hidden the
   * next snapshot carries it instead. Changes a request caused arrive before its reply.
   */
  | { readonly type: 'mcpState'; readonly state: McpPanelState }
  /**
   * Text for the Task box (an editor selection as a fenced block): appended to the draft, which
   * gets the focus. Sent once, to the first chat webview that is ready and visible.
   */
  | { readonly type: 'insertText'; readonly text: string }
  | { readonly type: 'reply'; readonly id: string; readonly ok: true }
  | { readonly type: 'reply'; readonly id: string; readonly ok: false; readonly error: string };

/** The request types of the webview, i.e. every message but `ready`. */
export type WebviewRequest = Exclude<WebviewMessage, { type: 'ready' }>;
