// Preview on a command approval, in the real workbench: the panel's previewCommand request runs the
// command under bubblewrap on a copy of the workspace, the approval shows what it would change,
// VS Code's multi-file diff opens on those files, the workspace is untouched, and "Apply preview"
// writes exactly the previewed files (the command itself never runs).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { SmithApi } from '../../../../src/host/vscode/smith-api';
import { findSandbox } from '../../../../src/core/process/task-sandbox';
import { createMessageHandlers } from '../../../../src/panel/message-handlers';
import { PanelMessenger, type WebviewEndpoint } from '../../../../src/panel/panel-messenger';
import type { HostMessage } from '../../../../src/shared/protocol';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../fixtures/scripted-llm-server';
import { until } from '../../../helpers/until';

const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const SETTINGS = ['provider', 'baseUrl', 'model', 'autoApprove.safeCommands', 'autoApprove.allCommands'];
const folder = join(workspace, 'preview-flow');

/** Stands in for the webview: records what the host posts. */
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
}

const command = (line: string) => `<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>`;
const completion = '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>';

describe('Command preview in the VS Code host', function () {
  this.timeout(120_000);
  let api: SmithApi;
  let server: ScriptedLlmServer;

  before(async function () {
    if ('reason' in (await findSandbox())) this.skip();
    api = await vscode.extensions.getExtension<SmithApi>('smith.smith')!.activate();
    server = await startScriptedLlmServer();
    const config = vscode.workspace.getConfiguration('smith');
    const target = vscode.ConfigurationTarget.Global;
    await config.update('provider', 'openai-compatible', target);
    await config.update('baseUrl', server.openAiBaseUrl, target);
    await config.update('model', 'scripted-model', target);
    await config.update('autoApprove.safeCommands', false, target);
    await config.update('autoApprove.allCommands', false, target);
  });

  afterEach(async () => {
    await api?.controller.closeAllTasks();
    rmSync(folder, { recursive: true, force: true });
  });

  after(async () => {
    if (!api) return;
    const config = vscode.workspace.getConfiguration('smith');
    for (const key of SETTINGS) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await server.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Preview shows the changes in the multi-file diff, leaves the workspace alone, and Apply preview writes exactly them', async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'notes.txt'), 'one\n');
    writeFileSync(join(folder, 'gone.txt'), 'bye\n');
    const webview = new RecordingWebview();
    const messenger = new PanelMessenger(webview, api.controller, createMessageHandlers(api.controller, api.mcp));
    try {
      server.enqueue(
        { text: command('cd preview-flow && echo two >> notes.txt && echo made > made.txt && rm gone.txt && echo previewed-output') },
        { text: completion },
      );
      await messenger.receive({ type: 'ready' });
      await messenger.receive({ type: 'newTask', id: 'req-1', text: 'Change the notes' });
      const taskId = api.controller.openTaskId!;
      await until(() => api.interactions.approvalOf(taskId) !== undefined, 'the command approval');
      const pending = api.interactions.approvalOf(taskId)!;
      assert.equal(pending.tool, 'execute_command');
      assert.deepEqual(pending.preview, { running: false, applicable: false }, 'a preview is offered');

      await messenger.receive({ type: 'previewCommand', id: 'req-2', callId: pending.callId, taskId });
      assert.deepEqual(
        webview.posted.filter((m) => m.type === 'reply' && m.id === 'req-2'),
        [{ type: 'reply', id: 'req-2', ok: true }],
      );
      const shown = api.controller.snapshot().task!.pendingApproval!.preview!;
      assert.equal(shown.applicable, true);
      assert.deepEqual(
        [shown.summary!.created, shown.summary!.changed, shown.summary!.deleted],
        [['preview-flow/made.txt'], ['preview-flow/notes.txt'], ['preview-flow/gone.txt']],
      );
      // VS Code's multi-file diff editor, titled after the command.
      await until(() => vscode.window.tabGroups.activeTabGroup.activeTab?.label.startsWith('Preview: cd preview-flow') === true, 'the preview diff tab');
      // Nothing happened to the workspace.
      assert.equal(readFileSync(join(folder, 'notes.txt'), 'utf8'), 'one\n');
      assert.equal(existsSync(join(folder, 'made.txt')), false);
      assert.equal(existsSync(join(folder, 'gone.txt')), true);

      await messenger.receive({ type: 'approve', id: 'req-3', callId: pending.callId, taskId, applyPreview: true });
      await until(() => api.controller.snapshot().task?.status === 'completed', 'the completed task');
      assert.equal(readFileSync(join(folder, 'notes.txt'), 'utf8'), 'one\ntwo\n');
      assert.equal(readFileSync(join(folder, 'made.txt'), 'utf8'), 'made\n');
      assert.equal(existsSync(join(folder, 'gone.txt')), false);
      const toModel = JSON.stringify(server.requests.at(-1)?.body ?? {});
      assert.match(toModel, /applied its effects/);
      assert.match(toModel, /previewed-output/);
    } finally {
      messenger.dispose();
    }
  });

  it('Apply preview is refused before a preview, and a remote effect is named without running', async () => {
    const webview = new RecordingWebview();
    const messenger = new PanelMessenger(webview, api.controller, createMessageHandlers(api.controller, api.mcp));
    try {
      server.enqueue({ text: command('git push origin main') }, { text: completion });
      await messenger.receive({ type: 'ready' });
      await messenger.receive({ type: 'newTask', id: 'req-1', text: 'Push' });
      const taskId = api.controller.openTaskId!;
      await until(() => api.interactions.approvalOf(taskId) !== undefined, 'the command approval');
      const pending = api.interactions.approvalOf(taskId)!;
      await messenger.receive({ type: 'approve', id: 'req-2', callId: pending.callId, taskId, applyPreview: true });
      const refused = webview.posted.find((m) => m.type === 'reply' && m.id === 'req-2');
      assert.ok(refused?.type === 'reply' && !refused.ok && /no preview of this command/i.test(refused.error), JSON.stringify(refused));
      await messenger.receive({ type: 'previewCommand', id: 'req-3', callId: pending.callId, taskId });
      const shown = api.controller.snapshot().task!.pendingApproval!.preview!;
      assert.equal(shown.applicable, false);
      assert.equal(shown.summary?.ran, false);
      assert.match(shown.summary?.notPreviewable[0]?.detail ?? '', /git push/);
      await messenger.receive({ type: 'reject', id: 'req-4', callId: pending.callId, taskId, feedback: 'not now' });
      await until(() => api.controller.snapshot().task?.status === 'completed', 'the completed task');
    } finally {
      messenger.dispose();
    }
  });
});
