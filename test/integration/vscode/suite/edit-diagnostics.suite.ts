// New errors after an edit: what the file's diagnostics gained between the write and the moment
// the language server settled, as the model will be told. A diagnostic collection of the test
// plays the language server, so the timing is under the test's control.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { EditDiagnostics } from '../../../../src/host/vscode/edit-diagnostics';
import { VsCodeFileSystem } from '../../../../src/host/vscode/vscode-file-system';

const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const root = join(workspace, 'diagnostics-tests');

function error(line: number, message: string, code?: string): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(new vscode.Range(line, 0, line, 5), message, vscode.DiagnosticSeverity.Error);
  diagnostic.source = 'fake-ls';
  if (code) diagnostic.code = code;
  return diagnostic;
}

describe('New diagnostics after an edit', () => {
  let collection: vscode.DiagnosticCollection;

  before(() => {
    mkdirSync(root, { recursive: true });
    collection = vscode.languages.createDiagnosticCollection('smith-test');
  });

  after(() => {
    collection.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it('reports only the errors the write added, once the language server has updated', async () => {
    const diagnostics = new EditDiagnostics({ waitMs: 3000, settleMs: 150 });
    const files = new VsCodeFileSystem({ beforeWrite: (path) => diagnostics.snapshot(path) });
    // No real language server knows this extension, so only the test's diagnostics exist.
    const path = join(root, 'module.smithtest');
    const uri = vscode.Uri.file(path);
    // An error that was there before, and a warning, must not be reported.
    collection.set(uri, [error(0, 'old problem', 'E1')]);
    await files.writeFileAtomic(path, 'export const x: number = "text";\n');
    setTimeout(() => {
      const warning = new vscode.Diagnostic(new vscode.Range(2, 0, 2, 1), 'just a warning', vscode.DiagnosticSeverity.Warning);
      // The old error moved down a line: still the same problem.
      collection.set(uri, [error(1, 'old problem', 'E1'), error(0, "Type 'string' is not assignable to type 'number'.", '2322'), warning]);
    }, 300);
    const started = Date.now();
    const fresh = await diagnostics.newErrors(path);
    assert.deepEqual(fresh, [`diagnostics-tests/module.smithtest:1:1 - Type 'string' is not assignable to type 'number'. (fake-ls 2322)`]);
    assert.ok(Date.now() - started < 2500, 'it waited for the whole timeout instead of settling');
  });

  it('reports nothing, after the short wait, when no language server speaks up', async () => {
    const diagnostics = new EditDiagnostics({ waitMs: 200 });
    const path = join(root, 'quiet.txt');
    diagnostics.snapshot(path);
    await new VsCodeFileSystem().writeFileAtomic(path, 'plain text\n');
    assert.deepEqual(await diagnostics.newErrors(path), []);
  });
});
