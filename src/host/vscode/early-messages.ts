import type * as vscode from 'vscode';

/**
 * What a chat page sends before Smith's core listens (its `ready` above all). The extension's entry
 * loads the page first and the core while the page loads; the core's messenger then listens
 * through `listen` and gets these messages first, in order, then each new one.
 */
export class EarlyMessages implements vscode.Disposable {
  /** Messages not yet handed on; undefined once they all were. */
  private held: unknown[] | undefined = [];
  private listener: ((message: unknown) => unknown) | undefined;
  private readonly subscription: vscode.Disposable;

  /** `seen`: called with each message as it arrives, whoever listens; false drops the message. */
  constructor(webview: Pick<vscode.Webview, 'onDidReceiveMessage'>, seen?: (message: unknown) => boolean) {
    this.subscription = webview.onDidReceiveMessage((message: unknown) => {
      if (seen?.(message) === false) return;
      if (this.held) this.held.push(message);
      else this.listener?.(message);
    });
  }

  /**
   * The one listener: the held messages go to it on a microtask (after the caller, a messenger
   * still being constructed, has finished), and any arriving before then queue behind them.
   */
  readonly listen = (listener: (message: unknown) => unknown): vscode.Disposable => {
    this.listener = listener;
    queueMicrotask(() => {
      const held = this.held ?? [];
      this.held = undefined;
      for (const message of held) this.listener?.(message);
    });
    return {
      dispose: () => {
        if (this.listener === listener) this.listener = undefined;
      },
    };
  };

  dispose(): void {
    this.subscription.dispose();
    this.listener = undefined;
    this.held = undefined;
  }
}
