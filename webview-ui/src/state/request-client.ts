import type { HostMessage, WebviewRequest } from '../../../src/shared/protocol.js';

/** A request as the caller writes it: the client adds the id. */
export type RequestPayload = WebviewRequest extends infer R ? (R extends WebviewRequest ? Omit<R, 'id'> : never) : never;

/** Sends requests with unique ids and settles each when its `reply` arrives. */
export interface RequestClient {
  /** Posts the request; resolves on `{ok: true}`, rejects with the host's error otherwise. */
  request(payload: RequestPayload): Promise<void>;
  /** Settles the matching pending request; returns false for messages that are not replies to us. */
  handleMessage(message: HostMessage): boolean;
  /** Rejects every pending request (the page is going away). */
  dispose(): void;
}

/** Creates a client that posts through `post`; `prefix` keeps ids unique across reloads of the page. */
export function createRequestClient(post: (message: WebviewRequest) => void, prefix: string = randomPrefix()): RequestClient {
  const pending = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  let counter = 0;
  return {
    request(payload) {
      counter += 1;
      const id = `${prefix}-${counter}`;
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        try {
          post({ ...payload, id } as WebviewRequest);
        } catch (error) {
          pending.delete(id);
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
    handleMessage(message) {
      if (message.type !== 'reply') return false;
      const waiter = pending.get(message.id);
      if (waiter === undefined) return false;
      pending.delete(message.id);
      if (message.ok) waiter.resolve();
      else waiter.reject(new Error(message.error));
      return true;
    },
    dispose() {
      for (const waiter of pending.values()) waiter.reject(new Error('The panel was closed before the host replied.'));
      pending.clear();
    },
  };
}

function randomPrefix(): string {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return `w${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
