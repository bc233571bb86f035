import { spawn } from 'node:child_process';
import { markedEnvironment, newCommandMarker } from '../process/command-marker.js';
import { killProcessTree } from '../process/process-tree.js';
import { MAX_TIMER_MS } from '../process/command-watch.js';

/** Output a hook may print before it is cut (a hook is not meant to stream logs). */
const MAX_OUTPUT = 64 * 1024;

/**
 * How long, after the hook's own process exited, its output pipes may stay open: a background child
 * (`cmd &`, `nohup`, `setsid`) that inherited them would otherwise keep the hook "running" for as
 * long as it lives. What the hook printed before exiting arrives well within it.
 */
const HOOK_PIPE_GRACE_MS = 1_000;

/** Time between SIGTERM and SIGKILL for what a hook leaves running. */
const KILL_GRACE_MS = 200;

/** How one hook command ended. `code` is null when it was killed (its timeout, or a signal). */
interface HookProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/**
 * Runs a hook command with `/bin/sh -c`, its input on stdin. It ends when the shell exits (plus
 * at most HOOK_PIPE_GRACE_MS for its output, never past the timeout) or at its timeout; then its
 * pipes are closed and whatever it left running is ended: its process group and every process
 * carrying its command marker, which setsid, nohup and double forks keep (process-tree.ts). So a
 * hook can neither hang a task nor leave processes behind.
 */
export function runHookProcess(command: string, input: string, cwd: string, timeoutMs: number): Promise<HookProcessResult> {
  return new Promise((resolve) => {
    const marker = newCommandMarker();
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: markedEnvironment({ ...process.env, SMITH_PROJECT_DIR: cwd, CLAUDE_PROJECT_DIR: cwd }, marker),
    });
    const started = Date.now();
    let stdout = '';
    let stderr = '';
    let exitCode: number | null = null;
    let spawnError: Error | undefined;
    let done = false;
    let grace: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(0, MAX_OUTPUT)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(0, MAX_OUTPUT)));
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearTimeout(grace);
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.destroy();
      const ended = child.pid === undefined ? Promise.resolve() : killProcessTree(child.pid, { graceMs: KILL_GRACE_MS, marker }).then(() => {});
      void ended.then(() => {
        if (spawnError) resolve({ code: 127, stdout, stderr: `${stderr}${spawnError.message}`, timedOut: false });
        else resolve({ code: timedOut ? null : exitCode, stdout, stderr, timedOut });
      });
    };
    // Held at the longest delay a timer takes: past it, setTimeout would fire at once and stop the hook unrun.
    const deadline = setTimeout(() => finish(true), Math.min(timeoutMs, MAX_TIMER_MS));
    child.on('error', (error) => {
      spawnError = error;
      finish(false);
    });
    child.on('exit', (code) => {
      exitCode = code;
      // The pipes normally close with the shell ('close' below); a background child holding them gets a short grace.
      grace = setTimeout(() => finish(false), Math.max(0, Math.min(HOOK_PIPE_GRACE_MS, timeoutMs - (Date.now() - started))));
    });
    child.on('close', () => finish(false));
    child.stdin.on('error', () => {}); // a hook that does not read its input is fine
    child.stdin.end(input);
  });
}
