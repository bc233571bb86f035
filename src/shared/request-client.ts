import type { HostMessage, WebviewRequest } from './protocol.js';

/** A request as the caller writes it: the client adds the id. */
export type RequestPayload = WebviewRequest extends infer R ? (R extends WebviewRequest ? Omit<R, 'id'> : never) : never;

/** Sends requests with unique ids and settles each when its `reply` arrives. */
export interface RequestClient {
  /** Posts the request; resolves on `{ok: true}`, rejects with the host's error, or when no reply comes in time. */
  request(payload: RequestPayload): Promise<void>;
  /** Settles the matching pending request; returns false for messages that are not replies to us. */
  handleMessage(message: HostMessage): boolean;
  /** Rejects every pending request (the page is going away). */
  dispose(): void;
}

/** How a client names and times its requests. */
interface RequestClientOptions {
  /** Keeps ids unique across reloads of the page (default: random). */
  readonly prefix?: string;
  /**
   * How long a request may wait for its reply before it fails (default 60 s). The host replies as
   * soon as a request is handled (starting a task, not running it), so only a lost or stuck host
   * takes this long; without a limit the button that sent it would stay busy for ever.
   */
  readonly timeoutMs?: number;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Creates a client that posts through `post`. */
export function createRequestClient(post: (message: WebviewRequest) => void, options: RequestClientOptions = {}): RequestClient {
  const prefix = options.prefix ?? randomPrefix();
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const pending = new Map<string, { settle: (error?: Error) => void }>();
  let counter = 0;
  return {
    request(payload) {
      counter += 1;
      const id = `${prefix}-${counter}`;
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => settle(new Error(`Smith did not answer "${payload.type}" within ${Math.round(timeoutMs / 1000)} s.`)), timeoutMs);
        const settle = (error?: Error) => {
          clearTimeout(timer);
          pending.delete(id);
          if (error) reject(error);
          else resolve();
        };
        pending.set(id, { settle });
        try {
          post({ ...payload, id } as WebviewRequest);
        } catch (error) {
          settle(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
    handleMessage(message) {
      if (message.type !== 'reply') return false;
      const waiter = pending.get(message.id);
      if (waiter === undefined) return false;
      waiter.settle(message.ok ? undefined : new Error(message.error));
      return true;
    },
    dispose() {
      for (const waiter of [...pending.values()]) waiter.settle(new Error('The panel was closed before the host replied.'));
    },
  };
}

function randomPrefix(): string {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return `w${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
