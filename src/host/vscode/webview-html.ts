import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { firstSnapshotElement, type SnapshotMessage } from '../../shared/first-snapshot.js';

/** Where the webview bundle lives, relative to the extension root. */
const WEBVIEW_DIST = ['dist', 'webview'] as const;

/** Webview options shared by the side-bar view and the editor tab: scripts on, files only from dist/webview. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, ...WEBVIEW_DIST)] };
}

/** A fresh nonce per page load; only scripts carrying it may run. Also names a page (see firstSnapshotElement). */
function createNonce(): string {
  return randomBytes(18).toString('base64');
}

/** The Content-Security-Policy of the chat page: nothing remote, no inline or eval'd script. */
function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return ["default-src 'none'", `style-src ${cspSource}`, `font-src ${cspSource}`, `img-src ${cspSource} data:`, `script-src 'nonce-${nonce}'`].join('; ');
}

/**
 * The chat page: a root element, the first snapshot (so the chat draws as soon as the script has
 * run), the bundle's script and styles, and the codicon font.
 */
export function buildWebviewHtml(
  webview: Pick<vscode.Webview, 'asWebviewUri' | 'cspSource'>,
  extensionUri: vscode.Uri,
  nonce = createNonce(),
  firstSnapshot?: SnapshotMessage,
): string {
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...WEBVIEW_DIST, name)).toString();
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(webview.cspSource, nonce)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${asset('codicon.css')}" id="vscode-codicon-stylesheet">
  <link rel="stylesheet" href="${asset('webview.css')}">
  <title>Smith</title>
</head>
<body>
  <div id="root"></div>
  ${firstSnapshot ? firstSnapshotElement(firstSnapshot, createNonce()) : ''}
  <script nonce="${nonce}" src="${asset('webview.js')}"></script>
</body>
</html>`;
}
