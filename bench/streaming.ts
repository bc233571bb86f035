// Streaming end to end, with an API key configured (so every delta is redacted): the cost of a
// reply streamed in small chunks over the same reply delivered in one chunk.
//  (a) the whole CLI run (dist/cli.js) of a 1 MB write_to_file from the scripted LLM server;
//  (b) the same reply through the panel backend (TaskController, LiveTasks, PanelMessenger) into
//      the webview's store, in process;
//  (c) a message of many small read_file calls, every block read after every chunk, through
//      redaction and every consumer, over one pass of the same message.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretRedactor } from '../src/core/secrets/secret-redactor.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../test/fixtures/scripted-llm-server.js';
import { chunksOf, codeOfSize, manyReadFiles } from './model-outputs.js';
import { builtInGrammar } from './parser.js';
import { runPanelStream } from './streaming-panel.js';
import { streamThroughConsumers } from './streaming-consumers.js';
import { statusOf, times, type BenchOptions, type BenchOutcome, type Row } from './report.js';
import { ratio, round, timeInterleaved } from './timing.js';

/** The key the runs are configured with; long enough to be redacted. */
export const BENCH_KEY = 'sk-bench-3Jd9QwLx7Vb2Mz5R';
const WHOLE_TARGET = 3;
/** Streamed over one pass of the many-blocks message, per chunk size. */
const MANY_TARGETS: Readonly<Record<number, number>> = { 16: 10, 256: 3 };

/** The 1 MB reply: a sentence, then one write_to_file of ~1 MB of code. */
export function bigWriteReply(size: number): string {
  return `I'll write the whole module in one go.\n\n<write_to_file>\n<path>src/big-module.tsx</path>\n<content>\n${codeOfSize(size)}\n</content>\n</write_to_file>`;
}

const COMPLETE = { text: '<attempt_completion>\n<result>Wrote the module.</result>\n</attempt_completion>' };

/** One CLI run against the server; resolves with its wall time once the file is written. */
async function cliRun(root: string, server: ScriptedLlmServer, text: string, chunkSize: number | undefined): Promise<void> {
  const ws = mkdtempSync(join(tmpdir(), 'smith-bench-stream-ws-'));
  const storage = mkdtempSync(join(tmpdir(), 'smith-bench-stream-st-'));
  try {
    server.enqueue({ text, ...(chunkSize ? { chunkSize } : {}) }, COMPLETE);
    const args = [
      join(root, 'dist', 'cli.js'),
      ...['--provider', 'openai-compatible', '--base-url', server.openAiBaseUrl, '--model', 'scripted-model'],
      ...['--cwd', ws, '--storage', storage, '--yes', '--no-checkpoints', 'Write the big module'],
    ];
    const child = spawn(process.execPath, args, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', SMITH_API_KEY: BENCH_KEY },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`the CLI run failed (${code}): ${stderr}`);
    assert.equal(readFileSync(join(ws, 'src', 'big-module.tsx'), 'utf8').length > 0, true);
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  }
}

/** Runs the streaming benchmark. */
export async function runStreamingBench(options: BenchOptions): Promise<BenchOutcome> {
  const size = options.quick ? 200_000 : 1_000_000;
  const reply = bigWriteReply(size);
  const repeats = options.quick ? 1 : 2;
  const rows: Row[] = [];
  const notes: string[] = [];
  const results: Record<string, unknown> = { reply_chars: reply.length, chunk_chars: 5 };

  // (a) The CLI, as users run it.
  if (!existsSync(join(options.root, 'dist', 'cli.js'))) throw new Error('dist/cli.js is missing: run `npm run build` first');
  const server = await startScriptedLlmServer();
  let cli: { streamed: number; whole: number } | undefined;
  try {
    const timed = await timeInterleaved(
      { streamed: () => cliRun(options.root, server, reply, 5), whole: () => cliRun(options.root, server, reply, undefined) },
      { warmup: 0, repeats },
    );
    cli = { streamed: timed.streamed.median, whole: timed.whole.median };
  } finally {
    await server.close();
  }
  const cliRatio = ratio(cli.streamed, cli.whole);
  options.log(`streaming: CLI ${reply.length} chars in 5-char chunks ${cli.streamed.toFixed(0)} ms, one chunk ${cli.whole.toFixed(0)} ms`);
  results.cli_ms = { streamed_5: round(cli.streamed, 0), one_chunk: round(cli.whole, 0) };
  results.cli_streamed_over_one_chunk = cliRatio;
  rows.push({
    bench: 'streaming',
    metric: `CLI run, ${Math.round(reply.length / 1000)} KB write_to_file, key set: 5-char chunks / one chunk`,
    value: times(cliRatio, 2),
    target: `<= ${WHOLE_TARGET}x`,
    status: statusOf(cliRatio, (v) => v <= WHOLE_TARGET),
  });

  // (b) The panel backend into the webview's store.
  const panelTimes = await timeInterleaved(
    { streamed: () => runPanelStream(reply, 5, BENCH_KEY), whole: () => runPanelStream(reply, undefined, BENCH_KEY) },
    { warmup: 0, repeats },
  );
  const panelRatio = ratio(panelTimes.streamed.median, panelTimes.whole.median);
  options.log(`streaming: panel ${panelTimes.streamed.median.toFixed(0)} ms streamed, ${panelTimes.whole.median.toFixed(0)} ms one chunk`);
  results.panel_ms = { streamed_5: round(panelTimes.streamed.median, 0), one_chunk: round(panelTimes.whole.median, 0) };
  results.panel_streamed_over_one_chunk = panelRatio;
  rows.push({
    bench: 'streaming',
    metric: `panel backend to the webview store, same reply: 5-char chunks / one chunk`,
    value: times(panelRatio, 2),
    target: `<= ${WHOLE_TARGET}x`,
    status: statusOf(panelRatio, (v) => v <= WHOLE_TARGET),
  });

  // (c) Many small blocks, every consumer attached.
  const grammar = builtInGrammar();
  const redactor = new SecretRedactor();
  redactor.set('provider', [BENCH_KEY]);
  const many = manyReadFiles(options.quick ? 30_000 : 100_000);
  const cwd = options.root;
  const onePass = await streamThroughConsumers([many], grammar, redactor, cwd);
  const manyRatios: Record<string, number | null> = {};
  for (const [chunkText, target] of Object.entries(MANY_TARGETS)) {
    const chunk = Number(chunkText);
    const chunks = chunksOf(many, chunk);
    const streamed = await streamThroughConsumers(chunks, grammar, redactor, cwd);
    // The store ends with the same message whichever way it arrived.
    assert.deepEqual(streamed.store.streaming, onePass.store.streaming, `the store differs after ${chunk}-char chunks`);
    assert.equal(streamed.reporterChars, onePass.reporterChars);
    const timed = await timeInterleaved(
      { streamed: () => streamThroughConsumers(chunks, grammar, redactor, cwd), whole: () => streamThroughConsumers([many], grammar, redactor, cwd) },
      { clock: 'cpu', warmup: 1, repeats: options.quick ? 3 : 7 },
    );
    const value = ratio(timed.streamed.median, timed.whole.median);
    manyRatios[`${chunk}`] = value;
    options.log(`streaming: many read_file blocks, ${chunk}-char chunks ${timed.streamed.median.toFixed(1)} ms, one pass ${timed.whole.median.toFixed(1)} ms`);
    rows.push({
      bench: 'streaming',
      metric: `many small read_file blocks (${Math.round(many.length / 1000)} KB), all consumers, key set: ${chunk}-char chunks / one pass`,
      value: times(value, 2),
      target: `<= ${target}x`,
      status: statusOf(value, (v) => v <= target),
    });
  }
  results.many_blocks_chars = many.length;
  results.many_blocks_streamed_over_one_pass = manyRatios;
  for (const row of rows) if (row.status === 'MISSED') notes.push(`streaming: target missed: ${row.metric} is ${row.value} (target ${row.target}).`);
  return { results, rows, notes };
}
