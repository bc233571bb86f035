// The channel between the panel backend and a webview. In VS Code it is the webview's
// postMessage pair; in tests and other hosts it is an in-memory pair (createLinkedPair), so
// both ends run together in one process.

/** One end of a message channel: sends `Outgoing`, receives `Incoming`. */
export interface Transport<Incoming, Outgoing> {
  send(message: Outgoing): void;
  /** Calls `listener` for every message that arrives from now on; returns the unsubscribe. */
  onMessage(listener: (message: Incoming) => void): () => void;
  /** Stops delivery both ways; sending on a closed end throws. */
  close(): void;
}

/**
 * Two connected ends: what one sends, the other receives. Delivery is asynchronous and copies the
 * message with structuredClone, as postMessage does, so nothing passes that a real webview could
 * not receive and neither side can mutate the other's objects.
 */
export function createLinkedPair<A, B>(): [Transport<B, A>, Transport<A, B>] {
  let closed = false;
  const toFirst = new Set<(message: B) => void>();
  const toSecond = new Set<(message: A) => void>();
  const deliver = <T>(listeners: Set<(message: T) => void>, message: T) => {
    if (closed) throw new Error('The transport is closed.');
    const copy = structuredClone(message);
    queueMicrotask(() => {
      if (closed) return;
      for (const listener of [...listeners]) listener(copy);
    });
  };
  const end = <In, Out>(inbox: Set<(message: In) => void>, outbox: Set<(message: Out) => void>): Transport<In, Out> => ({
    send: (message) => deliver(outbox, message),
    onMessage: (listener) => {
      inbox.add(listener);
      return () => inbox.delete(listener);
    },
    close: () => {
      closed = true;
      toFirst.clear();
      toSecond.clear();
    },
  });
  return [end(toFirst, toSecond), end(toSecond, toFirst)];
}
