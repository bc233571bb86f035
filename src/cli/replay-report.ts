// The comparison of `smith replay` for people: two columns for one replay, one table for a batch.
import type { ReplayComparison } from '../core/replay/run-replay.js';
import type { RunSummary } from '../core/replay/run-summary.js';
import type { Style } from './style.js';

/** One row of a batch: a replay that ran, or one that could not start. */
export type BatchRow = { readonly label: string; readonly taskId: string; readonly comparison: ReplayComparison } | { readonly label: string; readonly taskId: string; readonly error: string };

/** The original and the replay side by side, then each run's changes as a diff. */
export function formatComparison(c: ReplayComparison, style: Style): string {
  const { original: a, replay: b } = c;
  const rows: Array<[string, string, string]> = [
    ['', 'original', 'replay'],
    ['task', a.taskId, b.taskId],
    ['model', `${a.provider} ${a.model}`, `${b.provider} ${b.model}`],
    ['skill', a.skill, b.skill],
    ['status', a.status, b.status],
    ['requests', String(a.requests), String(b.requests)],
    ['tool calls', String(a.toolCalls), String(b.toolCalls)],
    ...[...new Set([...Object.keys(a.tools), ...Object.keys(b.tools)])].map((tool): [string, string, string] => [`  ${tool}`, String(a.tools[tool] ?? 0), String(b.tools[tool] ?? 0)]),
    ['mistakes', String(a.mistakes), String(b.mistakes)],
    ['approvals', approvals(a), approvals(b)],
    ['tokens in', count(a.tokens.input), count(b.tokens.input)],
    ['tokens out', count(a.tokens.output), count(b.tokens.output)],
    ['cost', cost(a.cost), cost(b.cost)],
    ['time', seconds(a.durationMs), seconds(b.durationMs)],
    ['files changed', String(a.diff.files.length), String(b.diff.files.length)],
    ...[...new Set([...a.diff.files.map((f) => f.path), ...b.diff.files.map((f) => f.path)])].sort().map((path): [string, string, string] => [`  ${path}`, fileChange(a, path), fileChange(b, path)]),
  ];
  const table = columns(rows.map((r) => [...r]), style);
  const diffs = [diffSection('Original run', a, style), diffSection('Replay', b, style)].join('\n');
  return `${style.bold(`Replay ${c.replayId}`)} of ${style.text(`"${oneLine(c.task)}"`)}\n${style.dim(`Scratch workspace: ${c.workspace}`)}\n\n${table}\n\n${diffs}`;
}

/** Every run of a batch in one table: each task's original once, then its replays. */
export function formatBatch(rows: readonly BatchRow[], style: Style): string {
  const header = ['task', 'run', 'model', 'skill', 'status', 'calls', 'mistakes', 'tokens in', 'tokens out', 'cost', 'time', 'files'];
  const lines: string[][] = [header];
  const shown = new Set<string>();
  const line = (taskId: string, label: string, r: RunSummary) => [taskId, label, `${r.provider} ${r.model}`, r.skill, r.status, String(r.toolCalls), String(r.mistakes), count(r.tokens.input), count(r.tokens.output), cost(r.cost), seconds(r.durationMs), String(r.diff.files.length)];
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
  return cells.map((row, r) => {
    const text = row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
    return r === 0 ? style.bold(text) : text;
  }).join('\n');
}

function diffSection(title: string, run: RunSummary, style: Style): string {
  if (run.diff.patch === '') return `${style.bold(`${title}:`)} no file changed\n`;
  return `${style.bold(`${title} changed:`)}\n${style.diff(run.diff.patch)}`;
}

function fileChange(run: RunSummary, path: string): string {
  const file = run.diff.files.find((f) => f.path === path);
  if (!file) return '-';
  return `${file.change} +${file.added} -${file.removed}`;
}

function approvals(run: RunSummary): string {
  return `${run.approvals.approved} approved, ${run.approvals.rejected} rejected`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function cost(value: number | null): string {
  return value === null ? 'unknown' : `$${value.toFixed(4)}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function oneLine(text: string): string {
  const first = text.split('\n')[0]!;
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}
