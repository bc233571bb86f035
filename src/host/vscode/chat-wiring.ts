import type * as vscode from 'vscode';
import type { RequestHandlers } from '../../panel/message-handlers.js';
import type { PanelSource } from '../../panel/panel-changes.js';
import { PanelMessenger, type WebviewEndpoint } from '../../panel/panel-messenger.js';
import { buildWebviewHtml } from './webview-html.js';

/** What every chat webview (side bar or editor tab) is connected to. */
export interface ChatWiring {
  readonly extensionUri: vscode.Uri;
  readonly source: PanelSource;
  readonly handlers: RequestHandlers;
  readonly log: (message: string) => void;
  /** A chat webview was shown or hidden. */
  readonly visibilityChanged?: () => void;
}

/** Connects a webview to the panel state, then loads the page (so its `ready` cannot be missed). */
export function connectChatWebview(
  webview: vscode.Webview,
  visibility: Pick<WebviewEndpoint, 'isVisible' | 'onDidChangeVisibility'>,
  wiring: ChatWiring,
): PanelMessenger {
  const endpoint: WebviewEndpoint = {
    postMessage: (message) => webview.postMessage(message),
    onDidReceiveMessage: webview.onDidReceiveMessage,
    ...visibility,
  };
  const messenger = new PanelMessenger(endpoint, wiring.source, wiring.handlers, { log: wiring.log });
  const { visibilityChanged } = wiring;
  if (visibilityChanged) visibility.onDidChangeVisibility(() => visibilityChanged());
  webview.html = buildWebviewHtml(webview, wiring.extensionUri);
  return messenger;
}
