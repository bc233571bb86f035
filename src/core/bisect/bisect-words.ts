// The words for a bisect's runs and sandbox, the same in the CLI and the panel.
import { formatDuration } from '../process/format-duration.js';
import { describeStep } from './bisect-steps.js';
import type { BisectReport, BisectRun } from './run-bisect.js';

/** How a run ended: "pass", "fail (exit code 1)", "fail (timed out after 5 s; its processes were killed)", "skipped: …". */
export function runVerdictWords(run: BisectRun, timeoutMs: number): string {
  if (run.verdict === 'pass') return 'pass';
  if (run.verdict === 'skip') return `skipped: ${run.unavailable ?? `exit code ${run.exitCode} (cannot test this state)`}`;
  if (run.timedOut) return `fail (timed out after ${formatDuration(timeoutMs)}; its processes were killed)`;
  return run.exitCode === null ? `fail (ended by ${run.signal ?? 'a signal'})` : `fail (exit code ${run.exitCode})`;
}

/** One line per run: checkpoint, step, verdict and time. */
export function runLine(run: BisectRun, timeoutMs: number): string {
  return `checkpoint ${run.checkpointId.padStart(2)}  ${runVerdictWords(run, timeoutMs)}  ${formatDuration(run.durationMs)}  after ${describeStep(run.step)}`;
}

/** How the test ran: "in the sandbox, without network", "unconfined (--no-sandbox)", … */
export function confinementWords(report: Pick<BisectReport, 'confinement' | 'sandboxReason' | 'network' | 'linked'>, offFlag: string): string {
  const network = report.network;
  const links = linkWords(report);
  if (report.confinement === 'off') return `unconfined (${offFlag}; ${links})`;
  if (report.confinement === 'unavailable') return `unconfined: no sandbox here (${report.sandboxReason ?? 'unknown reason'}; ${links})`;
  return `in the sandbox (only the scratch copy writable; ${network === 'all' ? 'with network' : network === 'hosts' ? 'only the allowed hosts reachable' : 'no network'}; ${links})`;
}

/** Whether the ignored entries were linked, and how safely. */
export function linkWords(report: Pick<BisectReport, 'confinement' | 'linked'>): string {
  if (!report.linked) return 'ignored folders such as node_modules not linked';
  if (report.confinement === 'sandboxed') return "the workspace's ignored folders such as node_modules linked read-only";
  return "the workspace's ignored folders such as node_modules linked and WRITABLE through the links";
}
