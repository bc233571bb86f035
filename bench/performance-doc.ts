// The figures of docs/performance.md come from bench/results.json, never typed by hand: the block
// between the markers below is rendered from the latest run of each benchmark. `npm run bench`
// rewrites it; `npm run bench:doc` does so from results.json alone; a unit test fails when the
// document and results.json disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatTable, type Row } from './report.js';

export const FIGURES_START = '<!-- figures:start (generated from bench/results.json by `npm run bench:doc`; do not edit) -->';
export const FIGURES_END = '<!-- figures:end -->';

/** One benchmark's run as results.json records it. */
export interface BenchRun {
  readonly date: string;
  readonly seconds: number;
  readonly quick: boolean;
  readonly load_average_1_5_15: { readonly before: readonly number[]; readonly after: readonly number[] };
}

/** The parts of results.json the document is made from. */
export interface ResultsDocument {
  readonly rows?: Readonly<Record<string, readonly Row[]>>;
  readonly notes?: Readonly<Record<string, readonly string[]>>;
  readonly meta?: { readonly node?: string; readonly platform?: string; readonly cpus?: string; readonly runs?: Readonly<Record<string, BenchRun>> };
}

/** The generated block: the table of every benchmark's latest rows, when and where each ran, and the notes. */
export function renderFigures(results: ResultsDocument): string {
  const rows = results.rows ?? {};
  const runs = results.meta?.runs ?? {};
  const all = Object.values(rows).flat();
  const missed = all.filter((row) => row.status === 'MISSED').length;
  const targets = all.filter((row) => row.target !== '').length;
  const lines = [
    FIGURES_START,
    '',
    `${targets} figures have a target; ${missed === 0 ? 'all are met' : `${missed} missed`}. Machine: ${results.meta?.cpus ?? 'unknown'}, ${results.meta?.platform ?? ''}, Node ${results.meta?.node ?? ''}.`,
    '',
    '```',
    formatTable(all),
    '```',
    '',
    '| benchmark | run | seconds | load average before → after (1 min) |',
    '| --- | --- | ---: | --- |',
    ...Object.keys(rows).map((name) => {
      const run = runs[name];
      if (!run) return `| ${name} | unknown | | |`;
      return `| ${name} | ${run.date.slice(0, 16).replace('T', ' ')} UTC${run.quick ? ' (--quick)' : ''} | ${run.seconds} | ${run.load_average_1_5_15.before[0]} → ${run.load_average_1_5_15.after[0]} |`;
    }),
  ];
  const notes = Object.values(results.notes ?? {}).flat();
  if (notes.length > 0) lines.push('', 'Notes of these runs:', '', ...notes.map((note) => `- ${note}`));
  lines.push('', FIGURES_END);
  return lines.join('\n');
}

/** The document with its generated block replaced; throws when the markers are missing. */
export function withFigures(document: string, results: ResultsDocument): string {
  const start = document.indexOf(FIGURES_START);
  const end = document.indexOf(FIGURES_END);
  if (start < 0 || end < start) throw new Error('docs/performance.md has lost its figures markers.');
  return document.slice(0, start) + renderFigures(results) + document.slice(end + FIGURES_END.length);
}

/** Rewrites docs/performance.md from bench/results.json. */
export function updatePerformanceDoc(root: string): void {
  const docPath = join(root, 'docs', 'performance.md');
  const results = JSON.parse(readFileSync(join(root, 'bench', 'results.json'), 'utf8')) as ResultsDocument;
  writeFileSync(docPath, withFigures(readFileSync(docPath, 'utf8'), results));
}

if (process.argv[1]?.endsWith('performance-doc.ts')) updatePerformanceDoc(join(__dirname, '..'));
