/** The last lines a server wrote (stderr and log notifications), bounded so a chatty server cannot grow memory. */
export class McpLogBuffer {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(private readonly capacity = 200) {}

  /** Adds a chunk of raw output; an unfinished last line waits for the rest. */
  write(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.push(line);
  }

  /** Adds one complete line. */
  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  /** The kept lines, oldest first, including an unfinished last line. */
  snapshot(): string[] {
    return this.partial ? [...this.lines, this.partial] : [...this.lines];
  }

  /** The last few lines as one string, for error messages. */
  tail(count: number): string {
    return this.snapshot()
      .filter((line) => line.trim() !== '')
      .slice(-count)
      .join('\n');
  }
}
