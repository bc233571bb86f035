import type * as vscode from 'vscode';
import type { RequestHandlers } from '../../panel/message-handlers.js';
import type { PanelSource } from '../../panel/panel-changes.js';
import { PanelMessenger, type WebviewEndpoint } from '../../panel/panel-messenger.js';
import { markOpening } from './opening-report.js';
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

/**
 * Connects a webview to the panel state, then loads the page (so its `ready` cannot be missed)
 * with the state as it is now, which the page draws at once; `ready` brings a fresh snapshot.
 */
export function connectChatWebview(
  webview: vscode.Webview,
  visibility: Pick<WebviewEndpoint, 'isVisible' | 'onDidChangeVisibility'>,
  wiring: ChatWiring,
): PanelMessenger {
  const endpoint: WebviewEndpoint = {
    postMessage: (message) => {
      if (message.type === 'snapshot') markOpening('firstSnapshotPosted');
      return webview.postMessage(message);
    },
    onDidReceiveMessage: (listener) =>
      webview.onDidReceiveMessage((message: unknown) => {
        if ((message as { type?: unknown } | undefined)?.type === 'ready') markOpening('readyReceived');
        listener(message);
      }),
    ...visibility,
  };
  const messenger = new PanelMessenger(endpoint, wiring.source, wiring.handlers, { log: wiring.log });
  const { visibilityChanged } = wiring;
  if (visibilityChanged) visibility.onDidChangeVisibility(() => visibilityChanged());
  webview.html = buildWebviewHtml(webview, wiring.extensionUri, undefined, messenger.snapshotMessage());
  markOpening('htmlSet');
  return messenger;
}
