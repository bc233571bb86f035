// The panel layer's own event primitives, shaped like VS Code's so its Event and Disposable fit
// here unchanged, without importing 'vscode' (the panel backend runs in plain Node too).

/** Something to release: a listener, a timer, a subscription. */
export interface Disposable {
  dispose(): void;
}

/** Subscribes a listener; disposing the result unsubscribes it. */
export type Event<T> = (listener: (value: T) => unknown) => Disposable;

/** Fires an event to its listeners in subscription order. */
export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(value: T) => unknown>();

  readonly event: Event<T> = (listener) => {
    // A wrapper per subscription, so the same function subscribed twice is called twice.
    const entry = (value: T) => listener(value);
    this.listeners.add(entry);
    return { dispose: () => this.listeners.delete(entry) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  /** True while anyone listens (work only they would see may be skipped otherwise). */
  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  dispose(): void {
    this.listeners.clear();
  }
}
