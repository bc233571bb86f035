// The chat page's CSP and resource roots, as VS Code builds the webview. (The messenger behind it
// runs without VS Code: test/unit/panel/panel-messenger.test.ts.)
import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import * as vscode from 'vscode';
import { buildWebviewHtml, webviewOptions } from '../../../../src/host/vscode/webview-html';

describe('Chat page HTML', () => {
  it('has a strict CSP with a nonce, loads only from dist/webview, and has a root element', async () => {
    const extensionUri = vscode.extensions.getExtension('smith.smith')!.extensionUri;
    const panel = vscode.window.createWebviewPanel('smith.cspTest', 'CSP test', vscode.ViewColumn.Active, webviewOptions(extensionUri));
    try {
      const html = buildWebviewHtml(panel.webview, extensionUri, 'TESTNONCE');
      const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
      assert.ok(csp, 'no CSP meta tag');
      assert.equal(
        csp,
        `default-src 'none'; style-src ${panel.webview.cspSource}; font-src ${panel.webview.cspSource}; img-src ${panel.webview.cspSource} data:; script-src 'nonce-TESTNONCE'`,
      );
      assert.doesNotMatch(html, /unsafe-eval|unsafe-inline/);
      const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
      assert.equal(scripts.length, 1);
      assert.match(scripts[0]!, /nonce="TESTNONCE"/);
      assert.match(scripts[0]!, /dist\/webview\/webview\.js/);
      assert.match(html, /dist\/webview\/webview\.css/);
      assert.match(html, /dist\/webview\/codicon\.css/);
      assert.match(html, /<div id="root"><\/div>/);
      const roots = panel.webview.options.localResourceRoots?.map((uri) => uri.path) ?? [];
      assert.deepEqual(roots, [vscode.Uri.joinPath(extensionUri, 'dist', 'webview').path]);
    } finally {
      panel.dispose();
    }
  });
});
