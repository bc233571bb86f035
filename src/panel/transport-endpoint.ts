import type { HostMessage } from '../shared/protocol.js';
import type { Transport } from '../shared/transport.js';
import { Emitter, type Event } from './event-emitter.js';
import type { WebviewEndpoint } from './panel-messenger.js';

/** A webview endpoint over a Transport (an in-memory pair in tests); its visibility is set by whoever owns it. */
export class TransportEndpoint implements WebviewEndpoint {
  private visible = true;
  private readonly visibility = new Emitter<void>();
  readonly onDidChangeVisibility = this.visibility.event;

  constructor(private readonly transport: Transport<unknown, HostMessage>) {}

  readonly onDidReceiveMessage: Event<unknown> = (listener) => ({ dispose: this.transport.onMessage(listener) });

  postMessage(message: HostMessage): undefined {
    this.transport.send(message);
    return undefined;
  }

  isVisible(): boolean {
    return this.visible;
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    this.visibility.fire();
  }
}
