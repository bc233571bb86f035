import type { KillReport, RunningProcess } from '../ports.js';

/** Why watching a command stopped. */
export type CommandStop =
  | { readonly kind: 'exited'; readonly exitCode: number | null; readonly signal?: string }
  /** The timeout passed; the whole tree was killed (`kill`: what was checked afterwards, when the host can check). */
  | { readonly kind: 'timed-out'; readonly kill?: KillReport }
  /** It was left running: it went quiet after running a while, or the user let it continue (`detach`). */
  | { readonly kind: 'still-running'; readonly by: 'quiet' | 'user' }
  /** The signal fired; the whole tree was killed. */
  | { readonly kind: 'aborted'; readonly kill?: KillReport }
  /** The shell could not even be started. */
  | { readonly kind: 'failed'; readonly error: Error };

/** What ends the wait besides the command's own exit. */
interface CommandWatchOptions {
  readonly signal: AbortSignal;
  /** Kill the tree after this long; undefined waits for as long as it takes. */
  readonly timeoutMs?: number;
  /**
   * Stop waiting (the command keeps running) once it printed nothing for quietMs and has run at
   * least minRunningMs; undefined never hands off.
   */
  readonly handOff?: { readonly quietMs: number; readonly minRunningMs: number };
  /** Stop waiting at once (the command keeps running) when this fires: the user chose to proceed. */
  readonly detach?: AbortSignal;
  /** Receives output until the watch stops; nothing after. */
  onOutput(chunk: string): void;
}

// setTimeout fires at once for delays past 2^31-1 ms, which would turn a long timeout into none.
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Follows a started command until it exits, times out (killed), goes quiet or is detached (left running) or is aborted (killed). */
export function watchCommand(running: RunningProcess, options: CommandWatchOptions): Promise<CommandStop> {
  return new Promise<CommandStop>((resolve) => {
    const startedAt = Date.now();
    let lastOutputAt = startedAt;
    let settled = false;
    let stopping = false;
    let quietTimer: NodeJS.Timeout | undefined;
    let timeoutTimer: NodeJS.Timeout | undefined;

    const settle = (stop: CommandStop): void => {
      if (settled) return;
      settled = true;
      clearTimeout(quietTimer);
      clearTimeout(timeoutTimer);
      options.signal.removeEventListener('abort', onAbort);
      options.detach?.removeEventListener('abort', onDetach);
      resolve(stop);
    };
    // The output printed while dying still belongs to the result, so settle only once it is dead.
    const killThen = (stop: Extract<CommandStop, { kind: 'timed-out' | 'aborted' }>): void => {
      if (settled || stopping) return;
      stopping = true;
      clearTimeout(quietTimer);
      const done = () => settle(running.killReport ? { ...stop, kill: running.killReport } : stop);
      running.kill().then(done, done);
    };
    const armQuietTimer = (): void => {
      const handOff = options.handOff;
      if (!handOff || stopping) return;
      clearTimeout(quietTimer);
      const due = Math.max(lastOutputAt + handOff.quietMs, startedAt + handOff.minRunningMs);
      quietTimer = setTimeout(
        () => {
          if (!stopping) settle({ kind: 'still-running', by: 'quiet' });
        },
        Math.min(MAX_TIMER_MS, Math.max(0, due - Date.now())),
      );
    };
    const onAbort = (): void => killThen({ kind: 'aborted' });
    // Ignored once a kill is under way: a dying command cannot be handed to the background.
    const onDetach = (): void => {
      if (!stopping) settle({ kind: 'still-running', by: 'user' });
    };

    running.onOutput((chunk) => {
      if (settled) return;
      options.onOutput(chunk);
      lastOutputAt = Date.now();
      armQuietTimer();
    });
    running.exited.then(
      (exit) => {
        if (!stopping) settle({ kind: 'exited', ...exit });
      },
      (error: unknown) => settle({ kind: 'failed', error: error instanceof Error ? error : new Error(String(error)) }),
    );
    if (options.timeoutMs !== undefined) {
      timeoutTimer = setTimeout(() => killThen({ kind: 'timed-out' }), Math.min(MAX_TIMER_MS, options.timeoutMs));
    }
    armQuietTimer();
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.detach?.aborted) onDetach();
    else options.detach?.addEventListener('abort', onDetach, { once: true });
  });
}
