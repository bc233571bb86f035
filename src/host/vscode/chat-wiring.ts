import type * as vscode from 'vscode';
import type { RequestHandlers } from '../../panel/message-handlers.js';
import type { PanelSource } from '../../panel/panel-changes.js';
import { PanelMessenger, type WebviewEndpoint } from '../../panel/panel-messenger.js';
import { firstSnapshotElement } from '../../shared/first-snapshot.js';
import type { Event } from '../../panel/event-emitter.js';
import type { EarlyMessages } from './early-messages.js';
import type { OpeningMark } from './opening-report.js';
import { buildWebviewHtml, createNonce } from './webview-html.js';

/** What every chat webview (side bar or editor tab) is connected to. */
export interface ChatWiring {
  readonly extensionUri: vscode.Uri;
  readonly source: PanelSource;
  readonly handlers: RequestHandlers;
  readonly log: (message: string) => void;
  /** A chat webview was shown or hidden. */
  readonly visibilityChanged?: () => void;
  /** Records a moment of opening the chat (src/host/vscode/opening-report.ts, kept by the extension's entry). */
  readonly markOpening?: (mark: OpeningMark) => void;
}

/**
 * Connects a webview to the panel state. Without `loaded`, it then loads the page (so its `ready`
 * cannot be missed) with the state as it is now, which the page draws at once; `ready` brings a
 * fresh snapshot. With `loaded`, the page was loaded before (without a snapshot) and these are the
 * messages it has sent since, its `ready` among them, taken first; the state as it is now is
 * posted at once, for the page to draw as soon as its script runs.
 */
export function connectChatWebview(
  webview: vscode.Webview,
  visibility: Pick<WebviewEndpoint, 'isVisible' | 'onDidChangeVisibility'>,
  wiring: ChatWiring,
  loaded?: EarlyMessages,
): PanelMessenger {
  const mark = wiring.markOpening ?? (() => {});
  const received: Event<unknown> = loaded ? loaded.listen : (listener) => webview.onDidReceiveMessage(listener);
  const endpoint: WebviewEndpoint = {
    postMessage: (message) => {
      if (message.type === 'snapshot') mark('firstSnapshotPosted');
      return webview.postMessage(message);
    },
    onDidReceiveMessage: (listener) =>
      received((message: unknown) => {
        if ((message as { type?: unknown } | undefined)?.type === 'ready') mark('readyReceived');
        listener(message);
      }),
    ...visibility,
  };
  const messenger = new PanelMessenger(endpoint, wiring.source, wiring.handlers, { log: wiring.log });
  const { visibilityChanged } = wiring;
  if (visibilityChanged) visibility.onDidChangeVisibility(() => visibilityChanged());
  if (!loaded) {
    webview.html = buildWebviewHtml(webview, wiring.extensionUri, undefined, {
      firstSnapshotHtml: firstSnapshotElement(messenger.snapshotMessage(), createNonce()),
    });
    mark('htmlSet');
  } else {
    // The page keeps it until its script takes it (webview-html.ts), so the chat draws without
    // waiting for `ready` to be answered; `ready` then brings a fresh one as always.
    mark('firstSnapshotPosted');
    void webview.postMessage(messenger.snapshotMessage());
  }
  return messenger;
}
