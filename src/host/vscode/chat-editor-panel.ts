import * as vscode from 'vscode';
import { connectChatWebview, type ChatWiring } from './chat-wiring.js';
import { webviewOptions } from './webview-html.js';

/** The webview type of the chat opened in an editor tab. */
const CHAT_EDITOR_VIEW_TYPE = 'smith.chatEditor';

/** The same chat in an editor tab (one at a time), for a wider view than the side bar. */
export class ChatEditorPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(private readonly wiring: ChatWiring) {}

  /** True while the editor tab is open. */
  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** True while the tab is the one shown in its group. */
  get isVisible(): boolean {
    return this.panel?.visible === true;
  }

  /** Opens the tab, or brings the open one to the front. */
  open(): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(CHAT_EDITOR_VIEW_TYPE, 'Smith', vscode.ViewColumn.Active, webviewOptions(this.wiring.extensionUri));
    panel.iconPath = vscode.Uri.joinPath(this.wiring.extensionUri, 'media', 'smith.svg');
    const messenger = connectChatWebview(panel.webview, { isVisible: () => panel.visible, onDidChangeVisibility: panel.onDidChangeViewState }, this.wiring);
    this.panel = panel;
    panel.onDidDispose(() => {
      messenger.dispose();
      if (this.panel === panel) this.panel = undefined;
    });
    return panel;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
