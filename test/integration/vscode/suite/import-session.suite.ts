// "Smith: Import Session…" in the real workbench, as the Explorer's context menu runs it on a
// Claude Code session file or a Cline task's conversation file: the task is written to Smith's
// storage, opened in the panel with the notice of what was not carried over, and listed in the
// history. A file that is no session is refused and nothing is written.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { ImportSessionOutcome } from '../../../../src/host/vscode/import-session-command';
import type { SmithApi } from '../../../../src/host/vscode/smith-api';
import { ClaudeCodeSessionBuilder, ClineTaskBuilder } from '../../../helpers/foreign-sessions';
import { until } from '../../../helpers/until';

describe('Import Session… in the workbench', function () {
  this.timeout(120_000);
  let api: SmithApi;
  let root: string;

  before(async () => {
    const extension = vscode.extensions.getExtension<SmithApi>('smith.smith');
    assert.ok(extension, 'smith.smith is not installed in the extension host');
    api = await extension.activate();
    root = realpathSync(mkdtempSync(join(tmpdir(), 'smith-import-suite-')));
  });

  after(async () => {
    await api.controller.closeAllTasks();
    rmSync(root, { recursive: true, force: true });
  });

  const storedTasks = () => readdirSync(join(api.storageDir, 'tasks'));

  it('imports a Claude Code session chosen in the Explorer and opens it with what was not carried over', async () => {
    const session = new ClaudeCodeSessionBuilder(root);
    session.user('Explain the build');
    session.assistant([{ type: 'tool_use', id: 'toolu_X', name: 'ExitPlanMode', input: { plan: 'Read esbuild.mjs' } }]);
    session.toolResult('toolu_X', 'User has approved your plan.');
    session.assistant([{ type: 'text', text: 'It bundles with esbuild.' }]);
    const file = session.write(join(root, 'session.jsonl'));

    const outcome = await vscode.commands.executeCommand<ImportSessionOutcome | undefined>('smith.importSession', vscode.Uri.file(file));
    assert.ok(outcome, 'nothing was imported');
    assert.ok(outcome.notCarried > 0, 'the ExitPlanMode call is not carried over and should be listed');
    assert.ok(storedTasks().includes(outcome.taskId), 'the task is not in the storage');
    assert.equal(api.controller.openTaskId, outcome.taskId, 'the imported task is not the one shown');
    const messages = api.controller.snapshot().task?.messages ?? [];
    const notice = messages.find((message) => message.kind === 'notice');
    assert.ok(notice && notice.kind === 'notice', `no notice among ${messages.map((m) => m.kind).join(', ')}`);
    assert.match(notice.text, /^Imported from Claude Code .*Not carried over/);
    assert.ok(
      messages.some((message) => message.kind === 'assistant' && JSON.stringify(message).includes('It bundles with esbuild.')),
      'the reply is not in the chat',
    );
    await until(() => api.controller.snapshot().history.some((item) => item.taskId === outcome.taskId), 'the imported task in the history');
  });

  it('imports a Cline task from its conversation file (the folder is the task)', async () => {
    const task = new ClineTaskBuilder(root);
    task.task('Say hello');
    task.reply('<attempt_completion>\n<result>Hello.</result>\n</attempt_completion>');
    const folder = task.write(join(root, 'global-storage'));

    const outcome = await vscode.commands.executeCommand<ImportSessionOutcome | undefined>(
      'smith.importSession',
      vscode.Uri.file(join(folder, 'api_conversation_history.json')),
    );
    assert.ok(outcome, 'nothing was imported');
    assert.equal(api.controller.openTaskId, outcome.taskId);
    const messages = api.controller.snapshot().task?.messages ?? [];
    assert.ok(
      messages.some((message) => message.kind === 'completion'),
      `no completion among ${messages.map((m) => m.kind).join(', ')}`,
    );
  });

  it('refuses a file that is no session, writing nothing', async () => {
    const file = join(root, 'notes.jsonl');
    writeFileSync(file, 'this is not JSON\n');
    const before = storedTasks();
    const outcome = await vscode.commands.executeCommand<ImportSessionOutcome | undefined>('smith.importSession', vscode.Uri.file(file));
    assert.equal(outcome, undefined);
    assert.deepEqual(storedTasks(), before);
  });
});
