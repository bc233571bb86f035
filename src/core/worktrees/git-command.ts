// Every git command of the worktree tasks runs here: execFile with an argv array (no shell), the
// GIT_* variables of Smith's own environment removed (a GIT_DIR or GIT_WORK_TREE inherited from a
// hook or a terminal would point git at another repository), and reported before it starts.
import { execFile } from 'node:child_process';

/** A git command about to run, exactly as it is started. */
export interface GitCommand {
  /** The program and its arguments, `['git', 'worktree', 'add', …]` (or `['gh', …]`). */
  readonly argv: readonly string[];
  /** The folder it runs in. */
  readonly cwd: string;
  /** False for a question that changes nothing (rev-parse, status, diff, log, merge-tree). */
  readonly changes: boolean;
}

/** Told of each command before it runs, so a user interface can show it. */
export type CommandListener = (command: GitCommand) => void;

/** What a finished command printed and how it exited. */
export interface CommandOutput {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A command that could not run or exited non-zero where success was required. */
class GitCommandError extends Error {
  constructor(
    readonly command: GitCommand,
    readonly output: CommandOutput,
  ) {
    super(`${command.argv.join(' ')} failed (exit ${output.code}): ${(output.stderr || output.stdout).trim().slice(0, 2000)}`);
    this.name = 'GitCommandError';
  }
}

/** How long one command may take before it is killed (a hook, a huge merge). */
const TIMEOUT_MS = 10 * 60_000;
/** Output kept of one command; a diff beyond it is cut (see worktree-diff.ts). */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/**
 * The environment git runs with: the user's, without any GIT_* variable, and with the ones that
 * keep it from waiting for a person (no terminal prompt, no editor, no pager).
 */
export function gitEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) if (!/^GIT_/i.test(key)) env[key] = value;
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_PAGER: 'cat', PAGER: 'cat', GH_PROMPT_DISABLED: '1' };
}

/** Runs a program (git or gh) with an argv array; never throws for a non-zero exit, only reports it. */
export function runProgram(
  argv: readonly string[],
  cwd: string,
  listener: CommandListener | undefined,
  changes: boolean,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandOutput> {
  const command: GitCommand = { argv: [...argv], cwd, changes };
  listener?.(command);
  const [file, ...args] = argv;
  return new Promise((resolve, reject) => {
    execFile(
      file!,
      args,
      { cwd, env: gitEnvironment(env), maxBuffer: MAX_OUTPUT_BYTES, timeout: TIMEOUT_MS, killSignal: 'SIGKILL', windowsHide: true },
      (error, stdout, stderr) => {
        const code = (error as NodeJS.ErrnoException | null)?.code;
        if (typeof code === 'string') {
          // The program could not start (ENOENT: not installed) or its output outgrew the buffer.
          reject(
            new Error(
              code === 'ENOENT'
                ? `${file} is not installed (not found on PATH)`
                : code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
                  ? `${argv.join(' ')} printed more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MiB; stopped`
                  : `${argv.join(' ')} could not run: ${(error as Error).message}`,
            ),
          );
          return;
        }
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Runs git in `cwd`; resolves with its output however it exits. */
export function git(args: readonly string[], cwd: string, listener?: CommandListener): Promise<CommandOutput> {
  return runProgram(['git', ...args], cwd, listener, true);
}

/**
 * A read-only question to git (rev-parse, status, diff, log, merge-tree): `--no-optional-locks`
 * keeps `git status` from refreshing the index, so reading never writes to the repository. Reported
 * too, marked `changes: false`.
 */
export function gitRead(args: readonly string[], cwd: string, listener?: CommandListener): Promise<CommandOutput> {
  return runProgram(['git', '--no-optional-locks', ...args], cwd, listener, false);
}

/** gitRead that requires exit 0. */
export async function gitReadOk(args: readonly string[], cwd: string, listener?: CommandListener): Promise<string> {
  const output = await gitRead(args, cwd, listener);
  if (output.code !== 0) throw new GitCommandError({ argv: ['git', '--no-optional-locks', ...args], cwd, changes: false }, output);
  return output.stdout;
}
