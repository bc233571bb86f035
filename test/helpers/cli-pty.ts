import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI_PATH } from './cli-runner.js';

/** The CLI running on a real pseudo-terminal. */
export interface PtyCli {
  /** Everything printed so far (stdout and stderr share the terminal). */
  readonly output: string;
  /** Waits until the output matches (counting only output after `from`, a length of `output`). */
  waitFor(pattern: RegExp, from?: number): Promise<void>;
  /** Types a line (with Enter) once the REPL has shown its `waitForPrompts`-th `smith> ` prompt (0: at once). */
  type(line: string, waitForPrompts?: number): Promise<void>;
  /** Sends keys as they are (no Enter), e.g. a word and a Tab. */
  keys(text: string): void;
  /** Presses Ctrl+C. */
  interrupt(): void;
  /** Ends the terminal and the CLI at once (after a failed assertion, so the test does not hang). */
  kill(): void;
  readonly exited: Promise<number | null>;
}

const WAIT_MS = 30_000;

/** Runs `dist/cli.js` with `args` on a pseudo-terminal (util-linux `script`), so stdin is a TTY. */
export function startCliOnPty(args: readonly string[], env: Readonly<Record<string, string>> = {}): PtyCli {
  const command = [process.execPath, CLI_PATH, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1', ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const waitFor = async (pattern: RegExp, from = 0) => {
    for (let waited = 0; !pattern.test(output.slice(from)); waited += 50) {
      if (waited > WAIT_MS) throw new Error(`no output matching ${pattern}; output so far:\n${output}`);
      await sleep(50);
    }
  };
  return {
    get output() {
      return output;
    },
    waitFor,
    async type(line: string, waitForPrompts = 0) {
      const prompts = () => output.split('smith> ').length - 1;
      for (let waited = 0; prompts() < waitForPrompts; waited += 50) {
        if (waited > WAIT_MS) throw new Error(`no prompt #${waitForPrompts}; output so far:\n${output}`);
        await sleep(50);
      }
      child.stdin.write(`${line}\r`);
    },
    keys: (text) => child.stdin.write(text),
    interrupt: () => child.stdin.write('\x03'),
    kill: () => child.kill('SIGKILL'),
    exited,
  };
}
