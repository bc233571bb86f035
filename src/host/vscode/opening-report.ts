import { renameSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** The moments of the extension's side of opening the chat, in the order they happen. */
export type OpeningMark =
  /** The bundle started to evaluate (its first line; reading and compiling it came before). */
  | 'bundleLoadStarted'
  | 'activateStarted'
  | 'activateFinished'
  /** Smith's core (dist/extension-core.js) started to load: everything beyond the entry's view and commands. */
  | 'coreLoadStarted'
  /** The core is loaded and its parts built. */
  | 'coreLoaded'
  /** VS Code asked the provider for the side-bar view. */
  | 'viewResolved'
  /** The chat page's HTML was handed to the webview. */
  | 'htmlSet'
  /** The webview's script ran and said `ready`. */
  | 'readyReceived'
  | 'firstSnapshotPosted';

/** What SMITH_ACTIVATION_REPORT receives: the activation times and each mark as wall-clock ms (epoch). */
interface OpeningReport {
  activationMs?: number;
  loadAndActivationMs?: number;
  marks: Partial<Record<OpeningMark, number>>;
}

const report: OpeningReport = { marks: {} };

/** Wall-clock ms with sub-ms precision, comparable with another process's (the benchmark's, the browser's). */
function wallClockMs(at = performance.now()): number {
  return performance.timeOrigin + at;
}

/**
 * Records the first time `mark` happens (`at`: a performance.now() reading, default now) and, when
 * SMITH_ACTIVATION_REPORT names a file, rewrites it, so the benchmark sees where the time of a cold
 * open goes. Later repeats (a second view, a reload) are ignored: the first open is the measured one.
 */
export function markOpening(mark: OpeningMark, at?: number): void {
  if (report.marks[mark] !== undefined) return;
  report.marks[mark] = wallClockMs(at);
  write();
}

/** Records how long loading the bundle and activate() took (the start-up benchmark's row). */
export function reportActivation(timing: { activationMs: number; loadAndActivationMs: number }): void {
  report.activationMs = timing.activationMs;
  report.loadAndActivationMs = timing.loadAndActivationMs;
  write();
}

/** Written whole and renamed into place, so a reader never sees half a file. */
function write(): void {
  const target = process.env.SMITH_ACTIVATION_REPORT;
  if (!target) return;
  writeFileSync(`${target}.part`, JSON.stringify(report));
  renameSync(`${target}.part`, target);
}
