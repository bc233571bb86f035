// The chat page's CSP and resource roots, as VS Code builds the webview. (The messenger behind it
// runs without VS Code: test/unit/panel/panel-messenger.test.ts.)
import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import * as vscode from 'vscode';
import { buildWebviewHtml, PAGE_LOADING, webviewOptions } from '../../../../src/host/vscode/webview-html';
import { EARLY_HOST_MESSAGES } from '../../../../src/shared/early-host-messages';
import { firstSnapshotElement, readFirstSnapshot } from '../../../../src/shared/first-snapshot';
import type { PanelState } from '../../../../src/shared/protocol';

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

  it('carries the first snapshot as a data block that no task text can end or turn into script', async () => {
    const extensionUri = vscode.extensions.getExtension('smith.smith')!.extensionUri;
    const panel = vscode.window.createWebviewPanel('smith.cspTest', 'CSP test', vscode.ViewColumn.Active, webviewOptions(extensionUri));
    try {
      const task = 'Fix </script><script>alert(1)</script><!-- it';
      const state: PanelState = {
        view: 'chat',
        settings: { provider: 'openai', model: 'gpt-4.1', baseUrl: '', toolProtocol: 'xml', hasApiKey: true },
        history: [{ taskId: 't1', task, startedAt: 1, updatedAt: 2, status: 'completed' }],
        modes: [],
        mode: 'act',
        modeSlug: 'code',
        mcp: { servers: [], problems: [], configFiles: { global: '/s/mcp_settings.json' } },
        autoApprove: { readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 },
      };
      const html = buildWebviewHtml(panel.webview, extensionUri, 'TESTNONCE', {
        firstSnapshotHtml: firstSnapshotElement({ type: 'snapshot', state }, 'page-1'),
      });
      const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      assert.deepEqual(
        scripts.map((m) => /type="([^"]+)"/.exec(m[1]!)?.[1] ?? 'script'),
        ['application/json', 'script'],
        'one data block, one script',
      );
      assert.doesNotMatch(scripts[0]![1]!, /nonce/);
      assert.doesNotMatch(scripts[0]![2]!, /</);
      assert.equal(readFirstSnapshot(scripts[0]![2])?.message.state.history[0]?.task, task);
    } finally {
      panel.dispose();
    }
  });

  it("announces a loading page from a script carrying the page's nonce, which hands the bundle the same VS Code API", async () => {
    const extensionUri = vscode.extensions.getExtension('smith.smith')!.extensionUri;
    const panel = vscode.window.createWebviewPanel('smith.cspTest', 'CSP test', vscode.ViewColumn.Active, webviewOptions(extensionUri));
    try {
      const html = buildWebviewHtml(panel.webview, extensionUri, 'TESTNONCE', { announceLoading: true });
      const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      assert.equal(scripts.length, 2, 'the announcing script, then the bundle');
      for (const [, attributes] of scripts) assert.match(attributes!, /nonce="TESTNONCE"/);
      const inline = scripts[0]![2]!;
      assert.ok(html.indexOf(inline) < html.indexOf('webview.js'), 'it runs before the bundle is fetched');
      // Run as the page would: the API is acquired once, the bundle's acquireVsCodeApi() gets that object.
      const posted: unknown[] = [];
      let acquired = 0;
      const page: { acquireVsCodeApi: () => unknown; [EARLY_HOST_MESSAGES]?: () => unknown[] } = {
        acquireVsCodeApi: () => {
          acquired++;
          if (acquired > 1) throw new Error('An instance of the VS Code API has already been acquired');
          return { postMessage: (message: unknown) => posted.push(message) };
        },
      };
      const window = new EventTarget();
      const hostPosts = (data: unknown) => window.dispatchEvent(Object.assign(new Event('message'), { data }));
      new Function('globalThis', 'acquireVsCodeApi', 'addEventListener', 'removeEventListener', inline)(
        page,
        page.acquireVsCodeApi,
        window.addEventListener.bind(window),
        window.removeEventListener.bind(window),
      );
      assert.deepEqual(posted, [{ type: PAGE_LOADING }]);
      const again = page.acquireVsCodeApi() as { postMessage: (message: unknown) => void };
      again.postMessage({ type: 'ready' });
      assert.deepEqual(posted, [{ type: PAGE_LOADING }, { type: 'ready' }]);
      assert.equal(acquired, 1);
      // What the host posts before the bundle listens is kept for it, once; nothing after it took them.
      hostPosts({ type: 'snapshot', n: 1 });
      hostPosts({ type: 'other', n: 2 });
      assert.deepEqual(page[EARLY_HOST_MESSAGES]?.(), [
        { type: 'snapshot', n: 1 },
        { type: 'other', n: 2 },
      ]);
      hostPosts({ type: 'snapshot', n: 3 });
      assert.deepEqual(page[EARLY_HOST_MESSAGES]?.(), []);
      assert.equal(buildWebviewHtml(panel.webview, extensionUri, 'TESTNONCE').includes(PAGE_LOADING), false, 'only when asked');
    } finally {
      panel.dispose();
    }
  });
});
