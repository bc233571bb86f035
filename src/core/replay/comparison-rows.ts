import type { ReplayComparison } from './run-replay.js';
import type { RunSummary } from './run-summary.js';
import { formatUsd } from '../../shared/money.js';

/** One line of a comparison: what it measures, and the original's and the replay's figure. */
interface ComparisonRow {
  readonly label: string;
  readonly original: string;
  readonly replay: string;
  /** A part of the row above it (one tool's calls, one file's change). */
  readonly detail?: boolean;
}

/**
 * The two runs side by side, row by row, as the CLI's table and the panel's Markdown both show
 * them: model, status, requests, tool calls (and per tool), mistakes, approvals, tokens, cost,
 * time, and the files changed (and how, per file).
 */
export function comparisonRows(c: ReplayComparison): ComparisonRow[] {
  const { original: a, replay: b } = c;
  const both = (label: string, figure: (run: RunSummary) => string): ComparisonRow => ({ label, original: figure(a), replay: figure(b) });
  const tools = [...new Set([...Object.keys(a.tools), ...Object.keys(b.tools)])];
  const files = [...new Set([...a.diff.files.map((f) => f.path), ...b.diff.files.map((f) => f.path)])].sort();
  return [
    both('task', (r) => r.taskId),
    both('model', (r) => `${r.provider} ${r.model}`),
    both('mode', (r) => r.modeSlug),
    both('status', (r) => r.status),
    both('requests', (r) => String(r.requests)),
    both('tool calls', (r) => String(r.toolCalls)),
    ...tools.map((tool) => ({ ...both(tool, (r) => String(r.tools[tool] ?? 0)), detail: true })),
    both('mistakes', (r) => String(r.mistakes)),
    both('approvals', (r) => `${r.approvals.approved} approved, ${r.approvals.rejected} rejected`),
    both('tokens in', (r) => countText(r.tokens.input)),
    both('tokens out', (r) => countText(r.tokens.output)),
    both('cost', (r) => costText(r.cost)),
    both('time', (r) => secondsText(r.durationMs)),
    both('files changed', (r) => String(r.diff.files.length)),
    ...files.map((path) => ({ ...both(path, (r) => fileChange(r, path)), detail: true })),
  ];
}

/** A token count with thousands separators. */
export function countText(n: number): string {
  return n.toLocaleString('en-US');
}

/** US dollars to four places, or "unknown" when the model's prices are not known. */
export function costText(value: number | null): string {
  return value === null ? 'unknown' : formatUsd(value, 4);
}

/** A duration in seconds, one decimal. */
export function secondsText(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function fileChange(run: RunSummary, path: string): string {
  const file = run.diff.files.find((f) => f.path === path);
  return file ? `${file.change} +${file.added} -${file.removed}` : '-';
}
