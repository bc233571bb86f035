// `smith bisect` for people: a line per run as it goes (stderr), then the step found, its files
// and diff, and the failing run's output (stdout).
import type { BisectProgress, BisectReport } from '../core/bisect/run-bisect.js';
import { describeStep } from '../core/bisect/bisect-steps.js';
import { confinementWords, linkWords, runLine, runVerdictWords } from '../core/bisect/bisect-words.js';
import { formatDuration } from '../core/process/format-duration.js';
import type { Style } from './style.js';

/** Lines of the failing run's output shown at the end (the JSON has all that was kept). */
const OUTPUT_LINES_SHOWN = 30;

/** The line for a run about to start or just ended. */
export function formatBisectProgress(progress: BisectProgress, timeoutMs: number, style: Style): string {
  if (progress.kind === 'started') {
    const states = `${progress.states} checkpoints`;
    const links = `${linkWords(progress)}${progress.linked ? '' : progress.confinement === 'sandboxed' ? ' (--no-link)' : ' (unconfined; --link-ignored links them)'}`;
    if (progress.confinement === 'sandboxed') return style.dim(`Bisecting ${states}; the test runs in the sandbox, in scratch copies; ${links}.`);
    if (progress.confinement === 'off')
      return style.yellow(`Bisecting ${states}; the test runs unconfined (--no-sandbox): it can change files outside the scratch copy; ${links}.`);
    return style.yellow(
      `Bisecting ${states}; the test runs unconfined: ${style.text(progress.sandboxReason ?? 'no sandbox here')}. It can change files outside the scratch copy, your workspace included; ${links}.`,
    );
  }
  if (progress.kind === 'testing')
    return style.dim(`Testing checkpoint ${progress.checkpointId} of ${progress.states - 1}: after ${style.text(describeStep(progress.step))}…`);
  const run = progress.run;
  const colour = run.verdict === 'pass' ? style.green : run.verdict === 'fail' ? style.red : style.yellow;
  return `  ${colour(style.text(runVerdictWords(run, timeoutMs)))} ${style.dim(`(${formatDuration(run.durationMs)})`)}`;
}

/** The whole result. */
export function formatBisectReport(report: BisectReport, style: Style): string {
  const lines = [
    `Bisect of task ${report.taskId} (${style.text(firstLine(report.task))})`,
    `Test: ${style.text(report.command)}, run ${confinementWords(report, '--no-sandbox')}, each run at most ${formatDuration(report.timeoutMs)}`,
    '',
    report.outcome === 'found' ? style.bold(style.text(report.message)) : style.yellow(style.text(report.message)),
  ];
  const culprit = report.culprit;
  if (culprit) {
    lines.push(`  last passing:  checkpoint ${culprit.lastPassing}`, `  first failing: checkpoint ${culprit.firstFailing}`);
    for (const { checkpointId, step } of culprit.steps) {
      lines.push(`  step (checkpoint ${checkpointId}): ${style.text(step.tool ?? step.kind)}`);
      for (const [key, value] of Object.entries(step.params ?? {})) lines.push(`    ${style.text(key)}: ${style.text(value)}`);
    }
    lines.push('', culprit.diff.files.length === 0 ? 'Files changed: none that the checkpoints kept' : 'Files changed:');
    for (const file of culprit.diff.files) lines.push(`  ${style.text(file.path)}  ${file.change} +${file.added} -${file.removed}`);
    if (culprit.diff.patch !== '') lines.push('', style.diff(culprit.diff.patch).trimEnd());
    const output = culprit.output.split('\n');
    lines.push('', `Output of the failing run${output.length > OUTPUT_LINES_SHOWN ? ` (its last ${OUTPUT_LINES_SHOWN} lines)` : ''}:`);
    lines.push(...output.slice(-OUTPUT_LINES_SHOWN).map((line) => `  ${style.text(line)}`));
  }
  if (report.runs.length > 0) {
    lines.push('', 'Runs:');
    for (const run of report.runs) lines.push(`  ${style.text(runLine(run, report.timeoutMs))}`);
  }
  return lines.join('\n');
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
