/**
 * Delivers a process's output to its listeners; output that arrives before the first listener
 * subscribes is held and replayed to it, so a fast command loses nothing.
 */
export class OutputFanout {
  private readonly listeners: ((chunk: string) => void)[] = [];
  private backlog: string[] | undefined = [];

  /** Adds a listener; the first one also receives everything held so far. */
  subscribe(listener: (chunk: string) => void): void {
    this.listeners.push(listener);
    const early = this.backlog;
    this.backlog = undefined;
    for (const chunk of early ?? []) listener(chunk);
  }

  emit(text: string): void {
    if (this.backlog) this.backlog.push(text);
    else for (const listener of this.listeners) listener(text);
  }
}
