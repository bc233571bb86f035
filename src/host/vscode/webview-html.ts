import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { EARLY_HOST_MESSAGES } from '../../shared/early-host-messages.js';

/** Where the webview bundle lives, relative to the extension root. */
const WEBVIEW_DIST = ['dist', 'webview'] as const;

/** Webview options shared by the side-bar view and the editor tab: scripts on, files only from dist/webview. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, ...WEBVIEW_DIST)] };
}

/** A fresh nonce per page load; only scripts carrying it may run. Also names a page (see firstSnapshotElement). */
export function createNonce(): string {
  return randomBytes(18).toString('base64');
}

/** The Content-Security-Policy of the chat page: nothing remote, no inline or eval'd script. */
function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return ["default-src 'none'", `style-src ${cspSource}`, `font-src ${cspSource}`, `img-src ${cspSource} data:`, `script-src 'nonce-${nonce}'`].join('; ');
}

/**
 * What the chat page posts first, from a script in its HTML, before its bundle has even been
 * fetched: the page is loading. The extension's entry loads Smith's core then, so the core and the
 * webview's script load side by side (src/host/vscode/chat-view-provider.ts).
 */
export const PAGE_LOADING = 'smith:pageLoading';

/** What the chat page carries besides the bundle. */
interface ChatPageContent {
  /** The first snapshot (firstSnapshotElement): the chat draws as soon as the script has run. */
  readonly firstSnapshotHtml?: string;
  /** Post PAGE_LOADING as soon as the page is there. */
  readonly announceLoading?: boolean;
}

/**
 * The script that posts PAGE_LOADING, and keeps what the host posts before the bundle listens (the
 * first snapshot, sent as soon as the core is connected) for the bundle to take. The VS Code API
 * may be acquired once per page, so the bundle's own acquireVsCodeApi() is given the same object.
 */
function pageLoadingScript(nonce: string): string {
  return `<script nonce="${nonce}">(() => {
    const api = acquireVsCodeApi();
    globalThis.acquireVsCodeApi = () => api;
    const early = [];
    const keep = (event) => early.push(event.data);
    addEventListener('message', keep);
    globalThis.${EARLY_HOST_MESSAGES} = () => { removeEventListener('message', keep); return early.splice(0); };
    api.postMessage({ type: '${PAGE_LOADING}' });
  })();</script>`;
}

/**
 * The chat page: a root element, what `content` adds, the bundle's script and styles, and the
 * codicon font. Without a first snapshot the page asks the host for one with `ready`.
 */
export function buildWebviewHtml(
  webview: Pick<vscode.Webview, 'asWebviewUri' | 'cspSource'>,
  extensionUri: vscode.Uri,
  nonce = createNonce(),
  content: ChatPageContent = {},
): string {
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...WEBVIEW_DIST, name)).toString();
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(webview.cspSource, nonce)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  ${content.announceLoading ? pageLoadingScript(nonce) : ''}
  <link rel="stylesheet" href="${asset('codicon.css')}" id="vscode-codicon-stylesheet">
  <link rel="stylesheet" href="${asset('webview.css')}">
  <title>Smith</title>
</head>
<body>
  <div id="root"></div>
  ${content.firstSnapshotHtml ?? ''}
  <script nonce="${nonce}" src="${asset('webview.js')}"></script>
</body>
</html>`;
}
