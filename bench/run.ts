// Runs every benchmark, prints ONE table of ratios (each against a baseline measured in this same
// run) and counts, writes bench/results.json and the figures of docs/performance.md. Usage:
//   node --import tsx bench/run.ts [--quick] [--only parser,edits,...] [--out FILE]
// With --only, the other benchmarks' sections of results.json are kept as their last run left them
// (each section records its own run's date).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runActivationBench } from './activation.js';
import { runCheckpointsBench } from './checkpoints.js';
import { runContextBench } from './context.js';
import { runEditsBench } from './edits.js';
import { runLogSizeBench } from './log-size.js';
import { runParserBench } from './parser.js';
import { runPromptBench } from './prompt.js';
import { updatePerformanceDoc, type BenchRun } from './performance-doc.js';
import { formatTable, type BenchOptions, type BenchOutcome, type Row } from './report.js';
import { runSearchBench } from './search.js';
import { runStartupBench } from './startup.js';
import { runStreamingBench } from './streaming.js';
import { runSubagentsBench } from './subagents.js';
import { runUiProjectionBench } from './ui-projection.js';
import { runWebviewBench } from './webview.js';

const BENCHES: Readonly<Record<string, (options: BenchOptions) => Promise<BenchOutcome>>> = {
  parser: runParserBench,
  streaming: runStreamingBench,
  edits: runEditsBench,
  prompt: runPromptBench,
  webview: runWebviewBench,
  startup: runStartupBench,
  search: runSearchBench,
  checkpoints: runCheckpointsBench,
  activation: runActivationBench,
  'ui-projection': runUiProjectionBench,
  'log-size': runLogSizeBench,
  context: runContextBench,
  subagents: runSubagentsBench,
};

function argValue(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const only = argValue(args, '--only')
    ?.split(',')
    .map((s) => s.trim());
  const unknown = only?.filter((name) => !(name in BENCHES)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(BENCHES).join(', ')}.\n`);
    return 2;
  }
  const root = resolve(__dirname, '..');
  const out = resolve(argValue(args, '--out') ?? join(root, 'bench', 'results.json'));
  const options: BenchOptions = { quick, root, log: (message) => process.stderr.write(`  ${message}\n`) };

  const started = performance.now();
  const loadBefore = loadavg().map((v) => Math.round(v * 100) / 100);
  const results: Record<string, unknown> = {};
  const rows: Row[] = [];
  const notes: string[] = [];
  const rowsByBench: Record<string, readonly Row[]> = {};
  const notesByBench: Record<string, readonly string[]> = {};
  const runs: Record<string, BenchRun> = {};
  let failed = false;
  for (const [name, run] of Object.entries(BENCHES)) {
    if (only && !only.includes(name)) continue;
    process.stderr.write(`[bench] ${name}\n`);
    const t0 = performance.now();
    const before = loadavg().map((v) => Math.round(v * 100) / 100);
    const rowsBefore = rows.length;
    const notesBefore = notes.length;
    try {
      const outcome = await run(options);
      Object.assign(results, name === 'startup' ? outcome.results : { [name]: outcome.results });
      rows.push(...outcome.rows);
      notes.push(...outcome.notes);
    } catch (error) {
      failed = true;
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`[bench] ${name} failed: ${message}\n`);
      results[name] = { error: message.split('\n')[0] };
      // results.json always has the headline keys, null when not measured.
      if (name === 'startup') results.vsix_bytes = null;
      rows.push({ bench: name, metric: 'failed to run (see stderr)', value: 'n/a', target: '', status: 'TODO' });
    }
    rowsByBench[name] = rows.slice(rowsBefore);
    notesByBench[name] = notes.slice(notesBefore);
    // Other processes competing for the CPUs make every ratio noisier; recorded to judge a run.
    runs[name] = {
      date: new Date().toISOString(),
      seconds: Math.round((performance.now() - t0) / 100) / 10,
      quick,
      load_average_1_5_15: { before, after: loadavg().map((v) => Math.round(v * 100) / 100) },
    };
  }
  const total = Math.round((performance.now() - started) / 100) / 10;

  const previous = readPrevious(out);
  const document = {
    ...previous,
    ...results,
    rows: inBenchOrder({ ...previous.rows, ...rowsByBench }),
    notes: inBenchOrder({ ...previous.notes, ...notesByBench }),
    meta: {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: `${availableParallelism()} x ${cpus()[0]?.model ?? 'unknown'}`,
      seconds: total,
      load_average_1_5_15: { before: loadBefore, after: loadavg().map((v) => Math.round(v * 100) / 100) },
      runs: inBenchOrder({ ...previous.meta?.runs, ...runs }),
    },
  };
  writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
  if (out === join(root, 'bench', 'results.json')) updatePerformanceDoc(root);

  process.stdout.write(`\nSmith benchmarks${quick ? ' (--quick)' : ''}: ratios against baselines measured in this run\n\n`);
  process.stdout.write(`${formatTable(rows)}\n`);
  if (notes.length > 0) process.stdout.write(`\nNotes:\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
  process.stdout.write(`\nWrote ${out} (${total} s)\n`);
  return failed ? 1 : 0;
}

/** The results file of earlier runs, whose sections a partial run keeps; empty when there is none or it is unreadable. */
function readPrevious(path: string): {
  rows?: Record<string, readonly Row[]>;
  notes?: Record<string, readonly string[]>;
  meta?: { runs?: Record<string, BenchRun> };
} {
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}

/** The entries of benchmarks that exist, in the order they run. */
function inBenchOrder<T>(byBench: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(BENCHES).flatMap((name) => (name in byBench ? [[name, byBench[name] as T]] : [])));
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
