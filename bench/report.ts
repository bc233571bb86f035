// What each benchmark hands back to bench/run.ts: its part of results.json and its rows of the
// one table the run prints.

/** Options every benchmark receives. */
export interface BenchOptions {
  /** A fast smoke run: smaller inputs and fewer repeats; figures are rougher. */
  readonly quick: boolean;
  /** The repository root (bench/..). */
  readonly root: string;
  /** Progress lines (stderr), so the table on stdout stays clean. */
  log(message: string): void;
}

/** How a row compares with its goal. */
export type RowStatus = 'met' | 'MISSED' | 'info' | 'TODO';

/** One line of the printed table. */
export interface Row {
  readonly bench: string;
  readonly metric: string;
  /** The figure as printed (a ratio "12.3x", a count, or "n/a"). */
  readonly value: string;
  /** The goal in words, e.g. ">= 20x"; empty for informational rows. */
  readonly target: string;
  readonly status: RowStatus;
}

/** What a benchmark returns. */
export interface BenchOutcome {
  /** Its section of results.json. */
  readonly results: Record<string, unknown>;
  readonly rows: readonly Row[];
  /** Notes printed under the table (misses, things not measured and why). */
  readonly notes: readonly string[];
}

/** A ratio for the table: "12.3x"; "n/a" when missing. */
export function times(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? 'n/a' : `${value.toFixed(digits)}x`;
}

/** A status from a goal: met, or MISSED; TODO when the figure could not be measured. */
export function statusOf(value: number | null | undefined, meets: (value: number) => boolean): RowStatus {
  if (value === null || value === undefined) return 'TODO';
  return meets(value) ? 'met' : 'MISSED';
}

/** Renders rows as one aligned plain-text table. */
export function formatTable(rows: readonly Row[]): string {
  const header: Row = { bench: 'bench', metric: 'metric', value: 'value', target: 'target', status: 'info' };
  const cells = [header, ...rows].map((r) => [r.bench, r.metric, r.value, r.target, r === header ? 'status' : r.status]);
  const widths = [0, 1, 2, 3, 4].map((c) => Math.max(...cells.map((row) => row[c]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, c) => (c === 2 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(cells[0]!), rule, ...cells.slice(1).map(line)].join('\n');
}
