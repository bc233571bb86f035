// Smith's activation in the real extension host: the API it returns, the commands and views it
// contributes, and the commands acting on the real workbench.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { COMMAND_IDS } from '../../../../src/host/vscode/contributed-ids';
import type { SmithApi } from '../../../../src/host/vscode/smith-api';
import { until } from '../../../helpers/until';

async function activeSmith(): Promise<SmithApi> {
  const extension = vscode.extensions.getExtension<SmithApi>('smith.smith');
  assert.ok(extension, 'smith.smith is not installed in the extension host');
  return extension.activate();
}

function webviewTabs(viewType: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewType));
}

describe('Smith activation', () => {
  let api: SmithApi;

  before(async () => {
    api = await activeSmith();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('returns its API with the controller, the key store and the storage folder', () => {
    assert.ok(api.controller, 'no controller');
    assert.ok(api.keys, 'no key store');
    assert.equal(typeof api.storageDir, 'string');
    assert.ok(api.storageDir.length > 0);
  });

  it('registers every command it contributes, and contributes every command it registers', async () => {
    const extension = vscode.extensions.getExtension('smith.smith')!;
    const contributed = (extension.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command).sort();
    assert.deepEqual(contributed, [...COMMAND_IDS].sort());
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of COMMAND_IDS) assert.ok(registered.has(id), `${id} is not registered`);
  });

  it('contributes the Smith activity-bar container with the chat webview view', () => {
    const contributes = vscode.extensions.getExtension('smith.smith')!.packageJSON.contributes;
    assert.deepEqual(
      contributes.viewsContainers.activitybar.map((c: { id: string }) => c.id),
      ['smith'],
    );
    assert.deepEqual(
      contributes.views.smith.map((v: { id: string; type: string }) => [v.id, v.type]),
      [['smith.chatView', 'webview']],
    );
  });

  it('focuses the chat view without errors', async () => {
    await vscode.commands.executeCommand('smith.focusPanel');
  });

  it('opens the chat in an editor tab, once', async () => {
    await vscode.commands.executeCommand('smith.openInEditor');
    await until(() => webviewTabs('smith.chatEditor').length === 1, 'the Smith editor tab');
    await vscode.commands.executeCommand('smith.openInEditor');
    assert.equal(webviewTabs('smith.chatEditor').length, 1, 'a second Smith tab was opened');
  });

  it('switches the panel to the settings and history views', async () => {
    await vscode.commands.executeCommand('smith.openSettings');
    assert.equal(api.controller.snapshot().view, 'settings');
    await vscode.commands.executeCommand('smith.openHistory');
    assert.equal(api.controller.snapshot().view, 'history');
    await vscode.commands.executeCommand('smith.newTask');
    const state = api.controller.snapshot();
    assert.equal(state.view, 'chat');
    assert.equal(state.task, undefined);
  });

  it('puts the editor selection into the Task box of the chat it shows, as a fenced block with where it is from', async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 3, 0);
    // Records what the chat webviews take: only a ready, visible one takes the text, and only once.
    const taken: string[] = [];
    const controller = api.controller;
    const take = controller.takeInserts.bind(controller);
    controller.takeInserts = () => {
      const texts = take();
      taken.push(...texts);
      return texts;
    };
    try {
      await vscode.commands.executeCommand('smith.addSelection');
      await until(() => taken.length > 0, 'a chat webview to take the selection');
      assert.equal(taken.length, 1);
      assert.match(taken[0]!, /\(lines 2-3\):\n```typescript\nconst b = 2;\nconst c = 3;\n```$/);
      assert.ok(taken[0]!.startsWith(document.uri.toString()), taken[0]);
    } finally {
      delete (controller as { takeInserts?: unknown }).takeInserts;
    }
    assert.deepEqual(controller.takeInserts(), [], 'the text is still waiting after it was taken');
  });

  it('cancels without a running task', async () => {
    await vscode.commands.executeCommand('smith.cancelTask');
    assert.equal(api.controller.isRunning, false);
  });
});
