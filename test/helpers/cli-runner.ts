import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The built CLI bundle the tests run, exactly as users run it. */
export const CLI_PATH = resolve(__dirname, '../../dist/cli.js');

/** What a finished CLI run printed. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options for one run of the CLI. */
export interface CliRunOptions {
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
  /** Lines typed on stdin, each sent when the CLI next prompts (a line ending in ': ' or '> '). */
  readonly answers?: readonly string[];
  /** Text piped to stdin (then closed). */
  readonly stdin?: string;
  readonly timeoutMs?: number;
}

/** Starts the CLI; the returned child can be killed by the test. */
export function spawnCli(options: CliRunOptions): { child: ChildProcess; done: Promise<CliRun> } {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [CLI_PATH, ...options.args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const answers = [...(options.answers ?? [])];
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (answers.length > 0 && /(: |> )$/.test(stderr)) child.stdin!.write(`${answers.shift()}\n`);
  });
  if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  else if (!options.answers) child.stdin!.end();
  const timeout = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  const done = new Promise<CliRun>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timeout);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, done };
}

/** Runs the CLI to the end. */
export function runCli(options: CliRunOptions): Promise<CliRun> {
  return spawnCli(options).done;
}
