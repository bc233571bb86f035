// The file tools through the editor's files: an unsaved editor's text is what the model reads and
// what an edit is checked against, so a change the user typed after the model's read (saved or
// not) is never overwritten.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { APPROVE_ALL_POLICY } from '../../../../src/core/log/approval-policy';
import { readFileTool } from '../../../../src/core/tools/read-file';
import { replaceInFileTool } from '../../../../src/core/tools/replace-in-file';
import { VsCodeFileSystem } from '../../../../src/host/vscode/vscode-file-system';
import { ToolHarness } from '../../../helpers/tool-harness';

const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const root = join(workspace, 'file-changes-tests');

async function userTypes(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the edit was not applied');
}

describe('File tools on files the user edits in the editor', () => {
  let harness: ToolHarness;

  before(() => {
    mkdirSync(root, { recursive: true });
    harness = new ToolHarness(root, new VsCodeFileSystem());
    harness.policy = APPROVE_ALL_POLICY;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(root, { recursive: true, force: true });
  });

  it('reads the unsaved text of an open editor, and stats its size', async () => {
    const path = join(root, 'open.txt');
    writeFileSync(path, 'on disk\n');
    const document = await vscode.workspace.openTextDocument(path);
    await vscode.window.showTextDocument(document);
    await userTypes(document, 'typed, not saved\nsecond line\n');
    const files = new VsCodeFileSystem();
    assert.equal((await files.stat(path))?.size, Buffer.byteLength('typed, not saved\nsecond line\n'));
    const chunks: Uint8Array[] = [];
    for await (const chunk of files.readChunks(path, { chunkSize: 5 })) chunks.push(chunk);
    assert.ok(chunks.every((c) => c.byteLength <= 5));
    assert.equal(Buffer.concat(chunks).toString('utf8'), 'typed, not saved\nsecond line\n');
    const outcome = await harness.run(readFileTool, { path: 'open.txt' });
    assert.equal(outcome.kind === 'result' && outcome.output, '1 | typed, not saved\n2 | second line');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('refuses an edit when the user typed in the file after the model read it, keeping their text', async () => {
    const path = join(root, 'notes.txt');
    writeFileSync(path, 'one\ntwo\n');
    const document = await vscode.workspace.openTextDocument(path);
    await vscode.window.showTextDocument(document);
    const read = await harness.run(readFileTool, { path: 'notes.txt' });
    assert.equal(read.kind, 'result');
    await userTypes(document, 'one\ntwo\nthree (typed by the user)\n');
    const outcome = await harness.run(replaceInFileTool, { path: 'notes.txt', diff: '------- SEARCH\ntwo\n=======\nTWO\n+++++++ REPLACE' });
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.kind === 'error' ? outcome.error : '', /^notes\.txt was changed on disk since you last read or wrote it/);
    assert.equal(document.getText(), 'one\ntwo\nthree (typed by the user)\n');
    assert.equal(readFileSync(path, 'utf8'), 'one\ntwo\n');

    // After a new read, the edit goes through the editor and keeps the user's line.
    await harness.run(readFileTool, { path: 'notes.txt' });
    const retried = await harness.run(replaceInFileTool, { path: 'notes.txt', diff: '------- SEARCH\ntwo\n=======\nTWO\n+++++++ REPLACE' });
    assert.equal(retried.kind, 'result', JSON.stringify(retried));
    assert.equal(readFileSync(path, 'utf8'), 'one\nTWO\nthree (typed by the user)\n');
  });
});
