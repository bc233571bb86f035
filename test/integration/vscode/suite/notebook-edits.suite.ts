// edit_notebook in the real workbench: the cell edit goes through the file's NotebookDocument (VS
// Code's built-in ipynb serializer), so the notebook shows it, one undo takes it back, and the file
// saved is a valid notebook; a notebook with unsaved changes in its editor is not edited.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { APPROVE_ALL_POLICY } from '../../../../src/core/log/approval-policy';
import type { Host } from '../../../../src/core/ports';
import type { ToolOutcome } from '../../../../src/core/tool-kit/tool-spec';
import { editNotebookTool } from '../../../../src/core/tools/edit-notebook';
import { readFileTool } from '../../../../src/core/tools/read-file';
import { VsCodeFileSystem } from '../../../../src/host/vscode/vscode-file-system';
import { VsCodeNotebooks } from '../../../../src/host/vscode/vscode-notebooks';
import { assertValidNotebook, codeCell, jupyterText, markdownCell, notebook } from '../../../helpers/notebooks';
import { ToolHarness } from '../../../helpers/tool-harness';

const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const root = join(workspace, 'notebook-tests');

/** Waits until `check` holds (the workbench applies undo and reloads asynchronously). */
async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function outputOf(outcome: ToolOutcome): string {
  assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
  return outcome.kind === 'result' ? outcome.output : '';
}

describe('Notebook edits through the notebook editor', function () {
  // The first notebook opened starts VS Code's ipynb extension, and a save goes through its serializer: slow on a busy machine.
  this.timeout(180_000);
  let harness: ToolHarness;

  before(() => {
    mkdirSync(root, { recursive: true });
    harness = new ToolHarness(workspace, new VsCodeFileSystem());
    harness.policy = APPROVE_ALL_POLICY;
    (harness.host as { notebooks?: Host['notebooks'] }).notebooks = new VsCodeNotebooks();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(root, { recursive: true, force: true });
  });

  function documentOf(path: string): vscode.NotebookDocument | undefined {
    return vscode.workspace.notebookDocuments.find((d) => d.uri.fsPath === path);
  }

  it('inserts a cell into the NotebookDocument, saves a valid notebook, and undo takes the cell back', async () => {
    const path = join(root, 'insert.ipynb');
    writeFileSync(path, jupyterText(notebook([markdownCell('# Sales'), codeCell('total = 42')])));
    outputOf(await harness.run(readFileTool, { path: 'notebook-tests/insert.ipynb' }));
    const output = outputOf(
      await harness.run(editNotebookTool, { path: 'notebook-tests/insert.ipynb', action: 'insert', index: '1', cell_type: 'code', source: 'print(total)' }),
    );
    assert.match(output, /was inserted as cell 1 of notebook-tests\/insert\.ipynb \(id "[0-9a-f]{8}"\) through the notebook editor/);
    const document = documentOf(path);
    assert.ok(document, 'the edit opened the notebook document');
    assert.equal(document.notebookType, 'jupyter-notebook');
    assert.deepEqual(
      document.getCells().map((cell) => [cell.kind, cell.document.getText()]),
      [
        [vscode.NotebookCellKind.Markup, '# Sales'],
        [vscode.NotebookCellKind.Code, 'print(total)'],
        [vscode.NotebookCellKind.Code, 'total = 42'],
      ],
    );
    assert.equal(document.isDirty, false, 'saved');
    const saved = assertValidNotebook(readFileSync(path, 'utf8'));
    assert.deepEqual(
      saved.cells.map((cell) => cell.source),
      [['# Sales'], ['print(total)'], ['total = 42']],
    );
    const id = /id "([0-9a-f]{8})"/.exec(output)![1];
    assert.equal(saved.cells[1]!.id, id, 'the id Smith gave is the one saved');

    await vscode.window.showNotebookDocument(document, { preserveFocus: false });
    await vscode.commands.executeCommand('undo');
    await until('the undo removed the cell', () => document.cellCount === 2);
    assert.deepEqual(
      document.getCells().map((cell) => cell.document.getText()),
      ['# Sales', 'total = 42'],
    );
  });

  it('replacing a code cell clears its outputs in the editor too', async () => {
    const path = join(root, 'replace.ipynb');
    const output = { output_type: 'stream', name: 'stdout', text: ['42\n'] };
    writeFileSync(path, jupyterText(notebook([codeCell('print(42)', [output])])));
    outputOf(await harness.run(readFileTool, { path: 'notebook-tests/replace.ipynb' }));
    outputOf(await harness.run(editNotebookTool, { path: 'notebook-tests/replace.ipynb', action: 'replace', index: '0', source: 'print(43)' }));
    const document = documentOf(path)!;
    assert.equal(document.cellAt(0).document.getText(), 'print(43)');
    assert.equal(document.cellAt(0).outputs.length, 0);
    const saved = assertValidNotebook(readFileSync(path, 'utf8'));
    assert.deepEqual([saved.cells[0]!.outputs, saved.cells[0]!.execution_count, saved.cells[0]!.id], [[], null, 'c0']);
  });

  it('a notebook with unsaved changes in its editor is not edited', async () => {
    const path = join(root, 'dirty.ipynb');
    const text = jupyterText(notebook([codeCell('a = 1')]));
    writeFileSync(path, text);
    outputOf(await harness.run(readFileTool, { path: 'notebook-tests/dirty.ipynb' }));
    const document = await vscode.workspace.openNotebookDocument(vscode.Uri.file(path));
    const change = new vscode.WorkspaceEdit();
    change.set(document.uri, [vscode.NotebookEdit.insertCells(1, [new vscode.NotebookCellData(vscode.NotebookCellKind.Code, 'b = 2', 'python')])]);
    assert.ok(await vscode.workspace.applyEdit(change));
    assert.equal(document.isDirty, true);
    const outcome = await harness.run(editNotebookTool, { path: 'notebook-tests/dirty.ipynb', action: 'delete', index: '0' });
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.kind === 'error' ? outcome.error : '', /has unsaved changes in its notebook editor, so the edit was not made and nothing was written/);
    assert.equal(readFileSync(path, 'utf8'), text);
    assert.equal(document.cellCount, 2, "the user's unsaved cell is still there");
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});
