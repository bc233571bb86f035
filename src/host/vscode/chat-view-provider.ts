import type * as vscode from 'vscode';
import { EarlyMessages } from './early-messages.js';
import { markOpening } from './opening-report.js';
import { buildWebviewHtml, PAGE_LOADING, webviewOptions } from './webview-html.js';

/** How a chat page reports being shown or hidden. */
export interface ChatVisibility {
  isVisible(): boolean;
  readonly onDidChangeVisibility: vscode.Event<unknown>;
}

/** Connects a chat page to Smith's core; with `loaded`, the page is loaded already (see connectChatWebview). */
export type ChatConnector = (webview: vscode.Webview, visibility: ChatVisibility, loaded?: EarlyMessages) => vscode.Disposable;

/** Smith's core as the view sees it: loaded or not, and its connector (which loads it). */
export interface ChatCore {
  readonly loaded: boolean;
  connector(): ChatConnector;
  /** The core could not load: said to the user once per view. */
  failed(error: unknown): void;
}

/**
 * The chat in the side bar; the webview is rebuilt from a snapshot whenever VS Code recreates it.
 * It belongs to the extension's small entry: when VS Code asks for the view before Smith's core has
 * loaded (a cold open), the page is loaded at once, without a snapshot, and the core loads while
 * the webview fetches and runs its script; the page's `ready` is answered once it has.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private connection: vscode.Disposable | undefined;
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly core: ChatCore,
  ) {}

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
    this.connection?.dispose();
    this.view = view;
    view.webview.options = webviewOptions(this.extensionUri);
    const visibility: ChatVisibility = { isVisible: () => view.visible, onDidChangeVisibility: view.onDidChangeVisibility };
    const connection = this.core.loaded ? this.core.connector()(view.webview, visibility) : this.loadPageFirst(view.webview, visibility);
    this.connection = connection;
    view.onDidDispose(() => {
      connection.dispose();
      if (this.connection === connection) {
        this.connection = undefined;
        this.view = undefined;
      }
    });
  }

  /**
   * The page now; the core when the page says it is there (PAGE_LOADING, posted before its bundle is
   * fetched), or with whatever the page sends first. Loading the core takes the extension host's
   * thread for a while, and the workbench only shows the page once the host has answered it, so
   * the core loads once the page is on its way, beside the webview's own script.
   */
  private loadPageFirst(webview: vscode.Webview, visibility: ChatVisibility): vscode.Disposable {
    let connected: vscode.Disposable | undefined;
    let disposed = false;
    const connect = () => {
      if (connected || disposed) return;
      try {
        connected = this.core.connector()(webview, visibility, early);
      } catch (error) {
        this.core.failed(error);
      }
    };
    const early = new EarlyMessages(webview, (message) => {
      const type = (message as { type?: unknown } | undefined)?.type;
      if (type === 'ready') markOpening('readyReceived');
      connect();
      return type !== PAGE_LOADING;
    });
    webview.html = buildWebviewHtml(webview, this.extensionUri, undefined, { announceLoading: true });
    markOpening('htmlSet');
    return {
      dispose: () => {
        disposed = true;
        connected?.dispose();
        early.dispose();
      },
    };
  }

  dispose(): void {
    this.connection?.dispose();
  }
}
