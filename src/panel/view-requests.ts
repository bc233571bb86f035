import type { PanelView } from '../shared/protocol.js';

/**
 * The host's requests for a view of the panel (a title-bar command, a task sent before the setup).
 * Each request has a name a webview remembers: it follows a request once, so a snapshot that
 * repeats it never takes back a view the user chose since. Navigation itself is the webview's.
 */
export class ViewRequests {
  private latest: { readonly view: PanelView; readonly name: string } | undefined;
  private count = 0;
  /** Tells these requests from those of an earlier extension host that a reloaded webview remembers. */
  private readonly prefix = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

  /** Asks for `view` (a new request, even when the last one asked for the same view). */
  request(view: PanelView): void {
    this.latest = { view, name: `${this.prefix}-${++this.count}` };
  }

  /** The snapshot's part: the requested view (the chat before any request) and the request's name. */
  state(): { readonly view: PanelView; readonly viewRequest?: string } {
    return this.latest ? { view: this.latest.view, viewRequest: this.latest.name } : { view: 'chat' };
  }
}
