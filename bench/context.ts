// Tokens a long task sends: a scripted 200-turn task on a 1M-token model (each turn reads a file of
// 300 to 3,000 tokens) through the real context guard, with the default policy (condense at 80 %
// of the window) against a token trigger (120,000) with large old results shortened first. The
// baseline is the same task, same guard, in the same run; the figure is a count, not a time.
import { ContextGuard } from '../src/core/task/context-guard.js';
import { estimateRequestTokens } from '../src/core/context/token-estimate.js';
import type { ContextPolicy } from '../src/core/context/context-window.js';
import { TaskLog } from '../src/core/log/task-log.js';
import type { ApiProvider, ApiStream } from '../src/core/providers/types.js';
import { statusOf, type BenchOptions, type BenchOutcome, type Row } from './report.js';
import { round } from './timing.js';

const TURNS = 200;
const LIMITS = { contextWindow: 1_000_000, maxOutputTokens: 32_000 };
const SYSTEM_PROMPT = 'You are Smith. '.repeat(800);
/** The trigger the users ask for on 1M-token models. */
const TOKEN_TRIGGER = 120_000;

/** A model that writes a summary of a fixed size when asked (the bench counts tokens, not quality). */
const summarizer: ApiProvider = {
  id: 'anthropic',
  modelId: 'bench-model',
  async *createMessage(): ApiStream {
    yield { type: 'text', text: `Summary of the work so far. ${'Detail. '.repeat(1_500)}` };
    yield { type: 'usage', usage: { inputTokens: 0, outputTokens: 3_000 } };
  },
};

/** A file's text of about `tokens` tokens, in lines as read_file shows them. */
function fileText(turn: number, tokens: number): string {
  const lines = Math.max(1, Math.round(tokens / 20));
  return Array.from({ length: lines }, (_, line) => `${line + 1} | const value${turn}_${line} = compute(${line}, "part ${turn}", options.limit);`).join('\n');
}

/** The tokens every request of the scripted task sends, summary requests included, under `policy`. */
async function tokensSent(policy: ContextPolicy): Promise<{ total: number; condensed: number; shortened: number }> {
  const log = TaskLog.inMemory('bench-context');
  const guard = new ContextGuard(log, policy);
  // Only the task text matters here; the rest of the event is what a task would log.
  log.append({
    type: 'task_started',
    taskId: 'bench-context',
    task: 'Refactor the module, reading each file first.',
    cwd: '/w',
    provider: 'anthropic',
    model: 'bench-model',
    mode: 'act',
    modeSlug: 'code',
  } as Parameters<TaskLog['append']>[0]);
  let total = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    const before = log.events.filter((e) => e.type === 'history_condensed').length;
    const messages = await guard.prepare(SYSTEM_PROMPT, summarizer, LIMITS, new AbortController().signal);
    // A summary request sends the whole history once more.
    if (log.events.filter((e) => e.type === 'history_condensed').length > before) total += estimateRequestTokens(SYSTEM_PROMPT, messages);
    total += estimateRequestTokens(SYSTEM_PROMPT, messages);
    log.append({ type: 'request_started', environmentDetails: '' });
    const text = `<read_file>\n<path>src/file-${turn}.ts</path>\n</read_file>`;
    log.append({ type: 'model_response', text, reasoning: '', blocks: [], usage: { inputTokens: 0, outputTokens: 50 } });
    log.append({ type: 'tool_requested', callId: `c${turn}`, tool: 'read_file', params: { path: `src/file-${turn}.ts` } });
    // Sizes cycle through small and large files, as a real code base's do.
    log.append({ type: 'tool_result', callId: `c${turn}`, tool: 'read_file', output: fileText(turn, 300 + ((turn * 370) % 2_700)) });
  }
  return {
    total,
    condensed: log.events.filter((e) => e.type === 'history_condensed').length,
    shortened: log.events.filter((e) => e.type === 'tool_results_shortened').length,
  };
}

export async function runContextBench(_options: BenchOptions): Promise<BenchOutcome> {
  const baseline = await tokensSent({ autoCondenseThreshold: 0.8 });
  const cheap = await tokensSent({ autoCondenseThreshold: 0.8, autoCondenseTokens: TOKEN_TRIGGER });
  const ratio = round(cheap.total / baseline.total);
  const rows: Row[] = [
    {
      bench: 'context',
      metric: `tokens sent over a ${TURNS}-turn task, 1M window: condense at ${TOKEN_TRIGGER / 1000}k tokens, old results shortened / at 80 %`,
      value: `${ratio.toFixed(2)}x`,
      target: '< 0.5x',
      status: statusOf(ratio, (v) => v < 0.5),
    },
    {
      bench: 'context',
      metric: '  at 80 % of the window (summaries, shortenings)',
      value: `${(baseline.total / 1e6).toFixed(1)}M tokens (${baseline.condensed}, ${baseline.shortened})`,
      target: '',
      status: 'info',
    },
    {
      bench: 'context',
      metric: `  at ${TOKEN_TRIGGER / 1000}k tokens, old results shortened first (summaries, shortenings)`,
      value: `${(cheap.total / 1e6).toFixed(1)}M tokens (${cheap.condensed}, ${cheap.shortened})`,
      target: '',
      status: 'info',
    },
  ];
  return { results: { turns: TURNS, baseline, cheap, ratio }, rows, notes: [] };
}
