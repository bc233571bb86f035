// The diff-editor review of proposed edits in the real workbench: streaming into the diff,
// approval (the engine's write lands on disk, nothing stays dirty), rejection (the file is
// byte-for-byte what it was, a file the edit would have created does not exist), and the
// user's own changes to the proposal coming back as editedContent.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { DiffApproval } from '../../../../src/host/vscode/diff-approval';
import { VsCodeFileSystem } from '../../../../src/host/vscode/vscode-file-system';
import { WebviewInteractions } from '../../../../src/panel/webview-interactions';
import { until } from '../../../helpers/until';

const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const root = join(workspace, 'diff-approval-tests');

/** Polls until `condition` gives a value (wide margin: the workbench shares 2 cores with other work). */

function reviewTabs(scheme: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === scheme);
}

function dirtyDocuments(): string[] {
  return vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString());
}

async function userTypes(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the edit was not applied');
}

describe('Edit review in the diff editor', () => {
  let files: VsCodeFileSystem;
  let diff: DiffApproval;

  before(() => {
    mkdirSync(root, { recursive: true });
    files = new VsCodeFileSystem();
    diff = new DiffApproval(files, { schemePrefix: 'smith-test', streamIntervalMs: 10 });
  });

  afterEach(async () => {
    await diff.discard({ all: true });
  });

  after(async () => {
    diff.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(root, { recursive: true, force: true });
  });

  it('streams a proposal into the diff editor, and after approval the written file equals it', async () => {
    const path = join(root, 'streamed.ts');
    const original = 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n';
    writeFileSync(path, original);
    const proposal = 'export const a = 10;\nexport const b = 20;\nexport const c = 30;\nexport const d = 40;\n';

    let written = '';
    for (const line of proposal.split(/(?<=\n)/)) {
      written += line;
      diff.streamPartial(path, written.slice(0, -1));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await until(() => reviewTabs('smith-test-proposal').length === 1, 'the diff editor');
    await until(() => diff.proposalDocument(path)?.getText().startsWith('export const a = 10;\n') === true, 'streamed lines in the proposal');
    // Lines not yet streamed still show the original's.
    assert.ok(readFileSync(path, 'utf8') === original, 'streaming touched the real file');

    await diff.present(path, { original, proposed: proposal, isNewFile: false });
    assert.equal(diff.proposalDocument(path)!.getText(), proposal);
    const accepted = await diff.accept(path);
    assert.deepEqual(accepted, {});
    await files.writeFileAtomic(path, proposal); // what the engine does after approval
    assert.equal(readFileSync(path, 'utf8'), proposal);
    assert.equal(reviewTabs('smith-test-proposal').length, 0, 'the diff editor is still open');
    assert.deepEqual(
      dirtyDocuments().filter((uri) => uri.includes('diff-approval-tests')),
      [],
    );
  });

  it('reports the user’s changes to the proposal as editedContent', async () => {
    const path = join(root, 'edited.py');
    const original = 'def f():\n    return 1\n';
    writeFileSync(path, original);
    const proposal = 'def f():\n    return 2\n';
    await diff.present(path, { original, proposed: proposal, isNewFile: false });
    const document = diff.proposalDocument(path)!;
    const edited = 'def f():\n    # the user prefers three\n    return 3\n';
    await userTypes(document, edited);
    const accepted = await diff.accept(path);
    assert.equal(accepted.editedContent, edited);
    await files.writeFileAtomic(path, accepted.editedContent!);
    assert.equal(readFileSync(path, 'utf8'), edited);
    assert.equal(reviewTabs('smith-test-proposal').length, 0);
    assert.deepEqual(
      dirtyDocuments().filter((uri) => uri.includes('edited.py')),
      [],
    );
  });

  it('keeps CRLF line endings in the user’s version of a CRLF proposal', async () => {
    const path = join(root, 'windows.txt');
    const original = 'one\r\ntwo\r\n';
    writeFileSync(path, original);
    const proposal = 'one\r\nTWO\r\n';
    await diff.present(path, { original, proposed: proposal, isNewFile: false });
    await userTypes(diff.proposalDocument(path)!, 'one\r\nTWO\r\nthree\r\n');
    const accepted = await diff.accept(path);
    assert.equal(accepted.editedContent, 'one\r\nTWO\r\nthree\r\n');
  });

  it('leaves the file byte for byte as it was after a rejection, even when the user edited the proposal', async () => {
    const path = join(root, 'bytes.txt');
    // A BOM, CRLF mixed with LF, trailing spaces and no final newline: what an editor save would change.
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first  \r\nsecond\nthird\t')]);
    writeFileSync(path, original);
    const text = original.toString('utf8');
    await diff.present(path, { original: text, proposed: 'something else entirely\n', isNewFile: false });
    await userTypes(diff.proposalDocument(path)!, 'the user typed here too\n');
    await diff.reject(path);
    assert.deepEqual(readFileSync(path), original);
    assert.equal(reviewTabs('smith-test-proposal').length, 0, 'the diff editor is still open');
    assert.deepEqual(
      dirtyDocuments().filter((uri) => uri.includes('bytes.txt')),
      [],
    );
  });

  it('creates nothing when the edit of a new file is rejected', async () => {
    const dir = join(root, 'brand', 'new');
    const path = join(dir, 'file.ts');
    diff.streamPartial(path, 'export function created() {\n  return true;\n');
    await until(() => reviewTabs('smith-test-proposal').length === 1, 'the diff editor of the new file');
    await diff.present(path, { original: '', proposed: 'export function created() {\n  return true;\n}\n', isNewFile: true });
    await diff.reject(path);
    assert.equal(existsSync(path), false, 'the rejected file exists');
    assert.equal(existsSync(join(root, 'brand')), false, 'its folder was created');
    assert.equal(reviewTabs('smith-test-proposal').length, 0);
  });

  it('closes a streamed review that never reached approval', async () => {
    const path = join(root, 'auto-approved.md');
    diff.streamPartial(path, '# Title\n\nBody\n');
    await until(() => reviewTabs('smith-test-proposal').length === 1, 'the diff editor');
    await diff.discard();
    assert.equal(reviewTabs('smith-test-proposal').length, 0);
    assert.equal(diff.isReviewing(path), false);
  });

  it('asks through the approval port: approving returns the user’s edits, aborting rejects', async () => {
    const path = join(root, 'port.js');
    const original = 'let x = 1;\n';
    writeFileSync(path, original);
    const interactions = new WebviewInteractions(diff, () => workspace);
    try {
      const request = {
        callId: 'call-7',
        tool: 'replace_in_file',
        summary: 'Edit diff-approval-tests/port.js',
        path: 'diff-approval-tests/port.js',
        diff: '--- a\n+++ b\n',
        proposal: { original, proposed: 'let x = 2;\n', isNewFile: false },
      };
      const answer = interactions.approvals.ask(request, new AbortController().signal);
      await until(() => interactions.pendingApproval?.callId === 'call-7', 'the pending approval');
      assert.equal(interactions.pendingApproval!.path, 'diff-approval-tests/port.js');
      assert.equal('proposal' in interactions.pendingApproval!, false, 'the panel gets the diff, not the file contents');
      // The approval is offered before the diff editor has opened; the user types once it shows.
      const proposal = await until(() => diff.proposalDocument(path), 'the proposal in the diff editor');
      await userTypes(proposal, 'let x = 3;\n');
      assert.throws(() => interactions.answerApproval('call-8', true), /call-7/);
      interactions.answerApproval('call-7', true, ' looks good ');
      assert.deepEqual(await answer, { approved: true, feedback: 'looks good', editedContent: 'let x = 3;\n' });
      assert.equal(interactions.pendingApproval, undefined);

      const abort = new AbortController();
      const aborted = interactions.approvals.ask({ ...request, callId: 'call-9' }, abort.signal);
      await until(() => interactions.pendingApproval?.callId === 'call-9', 'the second approval');
      abort.abort(new Error('aborted by user'));
      await assert.rejects(aborted, /aborted by user/);
      assert.equal(reviewTabs('smith-test-proposal').length, 0, 'the aborted review is still open');
      assert.equal(readFileSync(path, 'utf8'), original);
    } finally {
      interactions.dispose();
    }
  });

  it('writes through an open editor with unsaved changes, leaving it clean', async () => {
    const path = join(root, 'open-dirty.txt');
    writeFileSync(path, 'on disk\n');
    const document = await vscode.workspace.openTextDocument(path);
    await vscode.window.showTextDocument(document);
    await userTypes(document, 'unsaved in the editor\n');
    assert.equal(new TextDecoder().decode(await files.readFile(path)), 'unsaved in the editor\n', 'the engine must read what the user sees');
    await files.writeFileAtomic(path, 'written by Smith\n');
    assert.equal(document.isDirty, false);
    assert.equal(readFileSync(path, 'utf8'), 'written by Smith\n');
  });
});
