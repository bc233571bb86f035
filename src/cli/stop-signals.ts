import type { LineSource } from './line-source.js';

/** The ways a user (or the system) asks Smith to stop. */
type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

const SIGNAL_NUMBERS: Record<StopSignal, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/** The exit code of a process ended by the signal (128 + its number, as shells report it). */
export function signalExitCode(signal: StopSignal): number {
  return 128 + SIGNAL_NUMBERS[signal];
}

/**
 * While installed, sends SIGINT, SIGTERM and SIGHUP to `onStop` instead of ending the process, so
 * a run can stop its commands and report first. On a terminal, Ctrl+C reaches the line editor
 * rather than the process, so the line editor's SIGINT is routed too. Returns the uninstaller.
 */
export function onStopSignals(onStop: (signal: StopSignal) => void, lines?: LineSource): () => void {
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => {
    const handler = () => {
      // After a hang-up the terminal is gone: writing to it must not crash the clean-up.
      if (signal === 'SIGHUP') ignoreOutputErrors();
      onStop(signal);
    };
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  const onLineInterrupt = () => onStop('SIGINT');
  lines?.readline.on('SIGINT', onLineInterrupt);
  return () => {
    for (const off of handlers) off();
    lines?.readline.off('SIGINT', onLineInterrupt);
  };
}

let ignoring = false;

function ignoreOutputErrors(): void {
  if (ignoring) return;
  ignoring = true;
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
}
