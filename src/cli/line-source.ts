import { createInterface, type Interface } from 'node:readline';

/**
 * Lines typed (or piped) on stdin, buffered so none is lost between questions. Prompts go to
 * stderr so stdout stays clean for --output json.
 */
export class LineSource {
  private readonly buffered: string[] = [];
  private readonly waiting: Array<(line: string | undefined) => void> = [];
  private closed = false;
  readonly readline: Interface;

  constructor(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, terminal: boolean) {
    this.readline = createInterface({ input, output, terminal });
    this.readline.on('line', (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.buffered.push(line);
    });
    this.readline.on('close', () => {
      this.closed = true;
      for (const waiter of this.waiting.splice(0)) waiter(undefined);
    });
  }

  /** Shows the prompt and resolves with the next line, or undefined once input has ended or the signal fires. */
  next(prompt: string, signal?: AbortSignal): Promise<string | undefined> {
    if (this.buffered.length > 0) return Promise.resolve(this.buffered.shift());
    if (this.closed) return Promise.resolve(undefined);
    this.readline.setPrompt(prompt);
    this.readline.prompt();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(deliver), 1);
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

  close(): void {
    this.readline.close();
  }
}
