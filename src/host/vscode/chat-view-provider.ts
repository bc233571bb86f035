import type * as vscode from 'vscode';
import { connectChatWebview, type ChatWiring } from './chat-wiring.js';
import type { PanelMessenger } from '../../panel/panel-messenger.js';
import { markOpening } from './opening-report.js';
import { webviewOptions } from './webview-html.js';

/** The id of the chat view in the Smith activity-bar container (package.json). */
export const CHAT_VIEW_ID = 'smith.chatView';

/** The chat in the side bar. The webview is rebuilt from a snapshot whenever VS Code recreates it. */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private messenger: PanelMessenger | undefined;
  private view: vscode.WebviewView | undefined;

  constructor(private readonly wiring: ChatWiring) {}

  /** True once VS Code has created the view's webview (it does so when the view is first shown). */
  get isResolved(): boolean {
    return this.view !== undefined;
  }

  /** True while the view is on screen. */
  get isVisible(): boolean {
    return this.view?.visible === true;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    markOpening('viewResolved');
    this.messenger?.dispose();
    this.view = view;
    view.webview.options = webviewOptions(this.wiring.extensionUri);
    const messenger = connectChatWebview(view.webview, { isVisible: () => view.visible, onDidChangeVisibility: view.onDidChangeVisibility }, this.wiring);
    this.messenger = messenger;
    view.onDidDispose(() => {
      messenger.dispose();
      if (this.messenger === messenger) {
        this.messenger = undefined;
        this.view = undefined;
      }
    });
  }

  dispose(): void {
    this.messenger?.dispose();
  }
}
