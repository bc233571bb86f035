// The comparison of `smith replay` for people: two columns for one replay, one table for a batch.
import type { ReplayComparison } from '../core/replay/run-replay.js';
import type { RunSummary } from '../core/replay/run-summary.js';
import { comparisonRows, costText, countText, secondsText } from '../core/replay/comparison-rows.js';
import type { Style } from './style.js';

/** One row of a batch: a replay that ran, or one that could not start. */
export type BatchRow =
  | { readonly label: string; readonly taskId: string; readonly comparison: ReplayComparison }
  | { readonly label: string; readonly taskId: string; readonly error: string };

/** The original and the replay side by side, then each run's changes as a diff. */
export function formatComparison(c: ReplayComparison, style: Style): string {
  const { original: a, replay: b } = c;
  const rows = [['', 'original', 'replay'], ...comparisonRows(c).map((row) => [row.detail ? `  ${row.label}` : row.label, row.original, row.replay])];
  const table = columns(rows, style);
  const diffs = [diffSection('Original run', a, style), diffSection('Replay', b, style)].join('\n');
  return `${style.bold(`Replay ${c.replayId}`)} of ${style.text(`"${oneLine(c.task)}"`)}\n${style.dim(`Scratch workspace: ${c.workspace}`)}\n\n${table}\n\n${diffs}`;
}

/** Every run of a batch in one table: each task's original once, then its replays. */
export function formatBatch(rows: readonly BatchRow[], style: Style): string {
  const header = ['task', 'run', 'model', 'mode', 'status', 'calls', 'mistakes', 'tokens in', 'tokens out', 'cost', 'time', 'files'];
  const lines: string[][] = [header];
  const shown = new Set<string>();
  const line = (taskId: string, label: string, r: RunSummary) => [
    taskId,
    label,
    `${r.provider} ${r.model}`,
    r.modeSlug,
    r.status,
    String(r.toolCalls),
    String(r.mistakes),
    countText(r.tokens.input),
    countText(r.tokens.output),
    costText(r.cost),
    secondsText(r.durationMs),
    String(r.diff.files.length),
  ];
  for (const row of rows) {
    if ('error' in row) {
      lines.push([row.taskId, row.label, '', '', `error: ${row.error}`, '', '', '', '', '', '', '']);
      continue;
    }
    if (!shown.has(row.taskId)) {
      shown.add(row.taskId);
      lines.push(line(row.taskId, 'original', row.comparison.original));
    }
    lines.push(line(row.taskId, row.label, row.comparison.replay));
  }
  return columns(lines, style);
}

function columns(rows: string[][], style: Style): string {
  const cells = rows.map((row) => row.map((cell) => style.text(cell)));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells
    .map((row, r) => {
      const text = row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd();
      return r === 0 ? style.bold(text) : text;
    })
    .join('\n');
}

function diffSection(title: string, run: RunSummary, style: Style): string {
  if (run.diff.patch === '') return `${style.bold(`${title}:`)} no file changed\n`;
  return `${style.bold(`${title} changed:`)}\n${style.diff(run.diff.patch)}`;
}

function oneLine(text: string): string {
  const first = text.split('\n')[0]!;
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}
