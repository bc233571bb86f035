// Proves the mechanism: mocha runs inside the real extension host of code-server, with Smith
// loaded from the repository and the runner's workspace and environment.
import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import * as vscode from 'vscode';

describe('Smith in the real VS Code workbench', () => {
  it('is loaded as smith.smith and activates', async () => {
    const extension = vscode.extensions.getExtension('smith.smith');
    assert.ok(extension, 'smith.smith is not among the extensions of the extension host');
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('opens the runner workspace and passes the runner environment to the extension host', () => {
    const expected = process.env.SMITH_TEST_WORKSPACE;
    assert.ok(expected, 'SMITH_TEST_WORKSPACE did not reach the extension host');
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1);
    assert.equal(folders[0]?.uri.scheme, 'file');
    assert.equal(folders[0]?.uri.fsPath, expected);
  });
});
