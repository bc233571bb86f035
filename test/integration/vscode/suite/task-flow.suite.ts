// A whole task through the activated extension: the real engine talks to a scripted LLM server
// over OpenAI's wire format, streams a write_to_file into the diff editor, waits for the panel's
// approval, and the file lands on disk (or, rejected, never exists).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { TaskLog } from '../../../../src/core/log/task-log';
import type { SmithApi } from '../../../../src/host/vscode/smith-api';
import { taskMarkdown } from '../../../../src/panel/task-export';
import { createMessageHandlers } from '../../../../src/panel/message-handlers';
import { PanelMessenger, type WebviewEndpoint } from '../../../../src/panel/panel-messenger';
import type { HostMessage } from '../../../../src/shared/protocol';
import type { UiMessage } from '../../../../src/shared/ui-messages';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../fixtures/scripted-llm-server';
import { until } from '../../../helpers/until';

const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const SETTINGS = ['provider', 'baseUrl', 'model', 'autoApprove.editFiles', 'autoApprove.safeCommands', 'sandbox'];

function proposalTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .flatMap((tab) => (tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'smith-proposal' ? [tab.input] : []));
}

function writeCall(path: string, content: string): string {
  return `I will create the file.\n\n<write_to_file>\n<path>${path}</path>\n<content>\n${content}</content>\n</write_to_file>`;
}

/** Stands in for the webview: records what the host posts, always visible. */
class RecordingWebview implements WebviewEndpoint {
  readonly posted: HostMessage[] = [];
  private readonly never = new vscode.EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.never.event;
  readonly onDidChangeVisibility = this.never.event;
  postMessage(message: HostMessage): Thenable<boolean> {
    this.posted.push(message);
    return Promise.resolve(true);
  }
  isVisible(): boolean {
    return true;
  }
  /** The chat as a webview applying snapshots and deltas in order would show it. */
  replayedMessages(): readonly UiMessage[] {
    let messages: readonly UiMessage[] = [];
    for (const message of this.posted) {
      if (message.type === 'snapshot') messages = message.state.task?.messages ?? [];
      if (message.type === 'taskMessages') messages = [...messages.slice(0, message.start), ...message.messages];
    }
    return messages;
  }
}

const completion = '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>';

describe('A task in the VS Code host', function () {
  this.timeout(120_000);
  let api: SmithApi;
  let server: ScriptedLlmServer;

  before(async () => {
    api = await vscode.extensions.getExtension<SmithApi>('smith.smith')!.activate();
    server = await startScriptedLlmServer();
    const config = vscode.workspace.getConfiguration('smith');
    const target = vscode.ConfigurationTarget.Global;
    await config.update('provider', 'openai-compatible', target);
    await config.update('baseUrl', server.openAiBaseUrl, target);
    await config.update('model', 'scripted-model', target);
    await config.update('autoApprove.editFiles', false, target);
    await config.update('autoApprove.safeCommands', true, target);
  });

  afterEach(async () => {
    // Leaving a task stops nothing: each test's tasks are stopped and closed, so none answers the next test's model replies or approvals.
    await api.controller.closeAllTasks();
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('smith');
    for (const key of SETTINGS) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await server.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(join(workspace, 'flow'), { recursive: true, force: true });
  });

  it('streams an edit into the diff editor, asks, and writes the approved file', async () => {
    const webview = new RecordingWebview();
    const messenger = new PanelMessenger(webview, api.controller, createMessageHandlers(api.controller, api.mcp));
    try {
      const content = `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
      server.enqueue({ text: writeCall('flow/approved.txt', content), chunkSize: 12, chunkDelayMs: 15 }, { text: completion });
      await messenger.receive({ type: 'ready' });
      await messenger.receive({ type: 'newTask', id: 'req-1', text: 'Create flow/approved.txt' });
      assert.deepEqual(
        webview.posted.filter((m) => m.type === 'reply'),
        [{ type: 'reply', id: 'req-1', ok: true }],
      );
      // While the model is still writing, the diff editor already shows part of the file.
      await until(() => proposalTabs().length === 1, 'the streamed diff editor');
      assert.ok(!api.controller.snapshot().task!.messages.some((m) => m.kind === 'tool'), 'the diff opened only after the response was complete');
      const taskId = api.controller.openTaskId!;
      await until(() => api.interactions.approvalOf(taskId) !== undefined, 'the approval request');
      const pending = api.interactions.approvalOf(taskId)!;
      assert.equal(pending.tool, 'write_to_file');
      assert.equal(pending.path, 'flow/approved.txt');
      await until(() => api.controller.snapshot().task?.status === 'awaiting_approval', 'the awaiting status');
      // The approval is offered at once; the diff editor gets the whole proposal beside it.
      await until(
        () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === proposalTabs()[0]?.modified.toString())?.getText() === content,
        'the whole proposal in the diff editor',
      );
      assert.equal(existsSync(join(workspace, 'flow/approved.txt')), false, 'written before approval');

      await messenger.receive({ type: 'approve', id: 'req-2', callId: pending.callId, taskId });
      await until(() => api.controller.snapshot().task?.status === 'completed', 'the completed task');
      assert.equal(readFileSync(join(workspace, 'flow/approved.txt'), 'utf8'), content);
      assert.equal(proposalTabs().length, 0, 'the diff editor is still open');
      // The written file takes the diff's place.
      await until(
        () => vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === join(workspace, 'flow/approved.txt')),
        'the written file in an editor',
      );
      const final = api.controller.snapshot().task!.messages;
      const tool = final.find((m) => m.kind === 'tool');
      assert.equal(tool?.kind === 'tool' && tool.status, 'done');
      assert.match(JSON.stringify(server.requests.at(-1)?.body ?? {}), /was created successfully/);

      // What the webview received adds up to the host's state, and the text streamed in before it was logged.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(webview.replayedMessages(), final);
      // Streaming messages append (`textFrom` says where each part goes): the text they add up to.
      let streamed = '';
      let sawAnswer = false;
      for (const m of webview.posted) {
        if (m.type !== 'streaming') continue;
        streamed = streamed.slice(0, m.textFrom ?? 0) + m.text;
        sawAnswer ||= streamed.includes('I will create the file.');
      }
      assert.ok(sawAnswer, 'no streaming message');
      assert.deepEqual(
        webview.posted.filter((m) => m.type === 'reply').map((m) => [m.id, m.ok]),
        [
          ['req-1', true],
          ['req-2', true],
        ],
      );
    } finally {
      messenger.dispose();
    }
  });

  it('proceedCommand from the panel lets a running command continue while the task goes on', async () => {
    const webview = new RecordingWebview();
    const messenger = new PanelMessenger(webview, api.controller, createMessageHandlers(api.controller, api.mcp));
    try {
      // The timeout disables the quiet hand-off: only the panel's request can end the wait.
      const call =
        '<execute_command>\n<command>echo proceed-start; sleep 60</command>\n<requires_approval>false</requires_approval>\n<timeout>300</timeout>\n</execute_command>';
      server.enqueue({ text: call }, { text: completion });
      await messenger.receive({ type: 'ready' });
      await messenger.receive({ type: 'newTask', id: 'p-1', text: 'Start a server' });
      await until(() => webview.posted.some((m) => m.type === 'commandOutput' && m.text.includes('proceed-start')), 'the command output', 30_000);
      const tool = api.controller.snapshot().task!.messages.find((m) => m.kind === 'tool');
      assert.equal(tool?.kind === 'tool' && tool.status, 'running');
      await messenger.receive({ type: 'proceedCommand', id: 'p-2', callId: tool?.kind === 'tool' ? tool.callId : '' });
      await until(() => api.controller.snapshot().task?.status === 'completed', 'the completed task');
      assert.match(JSON.stringify(server.requests.at(-1)?.body ?? {}), /the user chose to continue while it runs/);
      assert.deepEqual(
        webview.posted.filter((m) => m.type === 'reply').map((m) => [m.id, m.ok]),
        [
          ['p-1', true],
          ['p-2', true],
        ],
      );
    } finally {
      messenger.dispose();
    }
  });

  it('with smith.sandbox on, a command runs confined: it writes in the workspace and nowhere else', async () => {
    // Outside the workspace and outside /tmp (which is private to the sandbox).
    const outside = join(homedir(), `.smith-sandbox-probe-${process.pid}`);
    await vscode.workspace.getConfiguration('smith').update('sandbox', true, vscode.ConfigurationTarget.Global);
    try {
      const call = `<execute_command>\n<command>mkdir -p flow && echo inside > flow/sandboxed.txt; echo x > ${outside}; echo exit=$?</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
      server.enqueue({ text: call }, { text: completion });
      await api.controller.newTask('Write two files');
      await until(() => api.controller.snapshot().task?.status === 'completed', 'the completed task', 30_000);
      assert.equal(readFileSync(join(workspace, 'flow/sandboxed.txt'), 'utf8'), 'inside\n');
      assert.equal(existsSync(outside), false, 'a sandboxed command wrote outside the workspace');
      assert.match(JSON.stringify(server.requests.at(-1)?.body ?? {}), /Read-only file system[\s\S]*exit=[12]/);
    } finally {
      rmSync(outside, { force: true });
      await vscode.workspace.getConfiguration('smith').update('sandbox', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('sets Plan/Act and the mode for new tasks, refusing unknown modes', async () => {
    api.controller.setMode('plan');
    api.controller.setModeSlug('ask');
    assert.equal(api.controller.snapshot().mode, 'plan');
    assert.equal(api.controller.snapshot().modeSlug, 'ask');
    assert.throws(() => api.controller.setModeSlug('no-such-mode'), /code/);
    api.controller.setMode('act');
    api.controller.setModeSlug('code');
  });

  it('rejects from the panel: the file is never created and the model gets the feedback', async () => {
    server.enqueue({ text: writeCall('flow/rejected/new.txt', 'nope\n') }, { text: completion });
    await api.controller.newTask('Create flow/rejected/new.txt');
    const taskId = api.controller.openTaskId!;
    await until(() => api.interactions.approvalOf(taskId) !== undefined, 'the approval request');
    await api.controller.sendMessage('Not this file, please.'); // typing while asked = reject with feedback
    await until(() => api.controller.snapshot().task?.status === 'completed', 'the completed task');
    assert.equal(existsSync(join(workspace, 'flow/rejected')), false);
    assert.equal(proposalTabs().length, 0);
    assert.match(JSON.stringify(server.requests.at(-1)?.body ?? {}), /Not this file, please/);
  });

  it('stores the task where the history lists it, and exports it as Markdown', async () => {
    server.enqueue({ text: completion });
    await api.controller.newTask('Say done');
    await until(() => api.controller.snapshot().task?.status === 'completed', 'the completed task');
    const id = api.controller.openTaskId!;
    assert.ok(existsSync(join(api.storageDir, 'tasks', id, 'events.jsonl')));
    await api.controller.clearTask();
    assert.ok(api.controller.snapshot().history.some((item) => item.taskId === id && item.status === 'completed'));
    await api.controller.openTask(id);
    assert.equal(api.controller.snapshot().task?.id, id);
    assert.equal(api.controller.snapshot().task?.status, 'completed');
    const markdown = taskMarkdown(TaskLog.open(api.storageDir, id).events);
    assert.match(markdown, /## Task\n\nSay done/);
    assert.match(markdown, /## Completed\n\nDone\./);
    await api.controller.deleteTask(id);
    assert.equal(existsSync(join(api.storageDir, 'tasks', id)), false);
    assert.equal(api.controller.snapshot().task, undefined);
  });
});
