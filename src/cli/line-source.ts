import { createInterface, type Interface } from 'node:readline';

/**
 * Lines typed (or piped) on stdin, buffered so none is lost between questions. Prompts go to
 * stderr so stdout stays clean for --output json.
 *
 * On a terminal, a line typed while nobody is asking goes to the type-ahead handler when one is
 * set (a running task queues it for the model), and `reply()` takes only lines typed after its
 * prompt was shown. Piped input keeps its order: each prompt takes the next line, even one that
 * arrived before the prompt, so scripts can pipe their answers in.
 */
export class LineSource {
  private readonly buffered: string[] = [];
  private readonly waiting: Array<(line: string | undefined) => void> = [];
  private closed = false;
  private typeAhead: ((line: string) => void) | undefined;
  readonly readline: Interface;
  /**
   * Runs a line typed at a reply prompt when it is a slash command, resolving true when it was
   * one (the prompt is then shown again); set once the session's commands exist.
   */
  commandHandler: ((line: string) => Promise<boolean>) | undefined;
  /** What Tab completes on a terminal; set once the session knows its workspace and commands. */
  completer: ((line: string) => Promise<[string[], string]>) | undefined;

  constructor(
    input: NodeJS.ReadableStream,
    output: NodeJS.WritableStream,
    /** A person types at a terminal (not piped input). */
    readonly terminal: boolean,
  ) {
    this.readline = createInterface({
      input,
      output,
      terminal,
      completer: (line: string, callback: (error: Error | null, result: [string[], string]) => void) => {
        if (!this.completer) return callback(null, [[], line]);
        this.completer(line).then(
          (result) => callback(null, result),
          () => callback(null, [[], line]),
        );
      },
    });
    this.readline.on('line', (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else if (this.typeAhead) this.typeAhead(line);
      else this.buffered.push(line);
    });
    this.readline.on('close', () => {
      this.closed = true;
      for (const waiter of this.waiting.splice(0)) waiter(undefined);
    });
  }

  /**
   * Sends lines typed while no prompt waits to `handler` (lines already buffered first), or, with
   * undefined, buffers them again for the next prompt. Only used on a terminal.
   */
  setTypeAhead(handler: ((line: string) => void) | undefined): void {
    this.typeAhead = handler;
    if (handler) for (const line of this.buffered.splice(0)) handler(line);
  }

  /** Input has ended and no line is left: a prompt now could never be answered. */
  get exhausted(): boolean {
    return this.closed && this.buffered.length === 0;
  }

  /**
   * Shows the prompt and resolves with the next line, or undefined once input has ended or the
   * signal fires. `fresh`: skip lines buffered before the prompt was shown (they stay buffered).
   */
  next(prompt: string, signal?: AbortSignal, options: { readonly fresh?: boolean } = {}): Promise<string | undefined> {
    if (!options.fresh && this.buffered.length > 0) return Promise.resolve(this.buffered.shift());
    if (this.closed) return Promise.resolve(undefined);
    this.readline.setPrompt(prompt);
    this.readline.prompt();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiting.indexOf(deliver);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal!.reason ?? new Error('aborted'));
      };
      const deliver = (line: string | undefined) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(line);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(deliver);
    });
  }

  /**
   * A reply to an approval or a question: on a terminal only a line typed after the prompt was
   * shown answers it. A slash command runs as a command and the prompt is shown again.
   */
  async reply(prompt: string, signal: AbortSignal): Promise<string | undefined> {
    for (;;) {
      const line = await this.next(prompt, signal, { fresh: this.terminal });
      if (line === undefined || !this.commandHandler || !(await this.commandHandler(line))) return line;
      signal.throwIfAborted();
    }
  }

  close(): void {
    this.readline.close();
  }
}
