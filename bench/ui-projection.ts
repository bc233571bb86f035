// The panel's chat as a task's log grows: Smith folds each appended event into the chat it keeps
// (foldUiEvents), against the approach it replaced, projecting the whole log again on every
// appended event (uiProjection of all events). Cost per appended event is measured with a log of
// 100 and of 10,000 events; the fold must stay flat, the rebuild grows with the log.
import assert from 'node:assert/strict';
import type { NewEvent, TaskEvent } from '../src/core/log/events.js';
import { emptyUiProjection, foldUiEvents, uiProjection } from '../src/core/task/ui-projection.js';
import { statusOf, times, type BenchOptions, type BenchOutcome, type Row } from './report.js';
import { clockNow, median, round } from './timing.js';

/** Smith's way, or the one it replaced. */
type Approach = 'fold' | 'rebuild';

const SMALL = 100;
const LARGE = 10_000;
/**
 * Events appended (and timed) after the log reached its size: enough that rebuilding the log for
 * the next sample stays a small part of the run, few enough that the log stays near its size.
 */
const APPENDS: Readonly<Record<Approach, Readonly<Record<number, number>>>> = {
  fold: { [SMALL]: 100, [LARGE]: 1_000 },
  rebuild: { [SMALL]: 100, [LARGE]: 10 },
};
const GROWTH_TARGET = 1.5;

/** One step of a task as the engine logs it: a request, a reply with a tool call, approval, result. */
function step(i: number): NewEvent[] {
  const callId = `call-${i}`;
  return [
    { type: 'request_started', environmentDetails: `# Current time\n${i}` },
    {
      type: 'model_response',
      text: '',
      reasoning: '',
      blocks: [
        { kind: 'text', text: `Step ${i}: reading the next file.`, partial: false },
        { kind: 'tool', name: 'read_file', params: { path: `src/file-${i}.ts` }, partial: false },
      ],
      usage: { inputTokens: 1000 + i, outputTokens: 40 },
    },
    { type: 'tool_requested', callId, tool: 'read_file', params: { path: `src/file-${i}.ts` } },
    { type: 'approval_asked', callId },
    { type: 'approval_answered', callId, approved: true },
    { type: 'tool_result', callId, tool: 'read_file', output: `1 | export const value${i} = ${i};` },
  ];
}

/** A realistic log of `length` events. */
export function taskLog(length: number): TaskEvent[] {
  const events: NewEvent[] = [
    { type: 'task_started', taskId: 'bench', task: 'Read everything', cwd: '/w', provider: 'openai', model: 'm', mode: 'act', modeSlug: 'code' },
  ];
  for (let i = 0; events.length < length; i++) events.push(...step(i));
  return events.slice(0, length).map((event, seq) => ({ ...event, seq, ts: seq }) as TaskEvent);
}

/**
 * CPU milliseconds per appended event: the log is built up to `size` events (untimed), then
 * APPENDS events are appended one by one, each followed by what the panel does with it. Repeated
 * until the timed part reaches `minSampleMs`.
 */
function perAppendMs(approach: Approach, all: readonly TaskEvent[], size: number, minSampleMs: number): number {
  let timed = 0;
  let appended = 0;
  let sink = 0;
  while (timed < minSampleMs) {
    const log = all.slice(0, size);
    const state = emptyUiProjection();
    foldUiEvents(state, log);
    const appends = APPENDS[approach][size]!;
    const start = clockNow('cpu');
    for (let i = size; i < size + appends; i++) {
      log.push(all[i]!);
      if (approach === 'fold') {
        const from = foldUiEvents(state, log);
        sink += state.messages.length - from;
      } else {
        sink += uiProjection(log).length;
      }
    }
    timed += clockNow('cpu') - start;
    appended += appends;
  }
  if (sink < 0) throw new Error('unreachable');
  return timed / appended;
}

export async function runUiProjectionBench(options: BenchOptions): Promise<BenchOutcome> {
  const all = taskLog(LARGE + APPENDS.fold[LARGE]!);
  // The fold and the rebuild give the same chat for this log.
  const state = emptyUiProjection();
  foldUiEvents(state, all);
  assert.deepEqual(state.messages, uiProjection(all));

  const rounds = options.quick ? 2 : 5;
  const minSampleMs = options.quick ? 20 : 60;
  const samples: Record<'fold-100' | 'fold-10000' | 'rebuild-100' | 'rebuild-10000', number[]> = {
    'fold-100': [],
    'fold-10000': [],
    'rebuild-100': [],
    'rebuild-10000': [],
  };
  // Warm-up: the first folds run before the JIT has settled.
  for (const size of [SMALL, LARGE]) perAppendMs('fold', all, size, minSampleMs);
  // Interleaved rounds, so load from other processes hits every cell alike.
  for (let r = 0; r < rounds; r++) {
    for (const approach of ['fold', 'rebuild'] as const) {
      // The rebuild's ratio is far from any goal: one round of it is enough.
      if (approach === 'rebuild' && r > 0) continue;
      for (const size of [SMALL, LARGE]) samples[`${approach}-${size === SMALL ? 100 : 10000}`].push(perAppendMs(approach, all, size, minSampleMs));
    }
  }
  const ms = {
    fold: { small: median(samples['fold-100']), large: median(samples['fold-10000']) },
    rebuild: { small: median(samples['rebuild-100']), large: median(samples['rebuild-10000']) },
  };
  const foldGrowth = round(ms.fold.large / ms.fold.small);
  const rebuildGrowth = round(ms.rebuild.large / ms.rebuild.small);
  const speedup = round(ms.rebuild.large / ms.fold.large, 1);
  options.log(
    `ui-projection: fold ${round(ms.fold.small * 1000, 3)} / ${round(ms.fold.large * 1000, 3)} µs per event, rebuild ${round(ms.rebuild.small * 1000, 3)} / ${round(ms.rebuild.large * 1000, 3)} µs (100 / 10,000 events)`,
  );

  const rows: Row[] = [
    {
      bench: 'ui-projection',
      metric: 'growth: cost per appended event, 10,000 over 100 events (fold)',
      value: times(foldGrowth, 2),
      target: `<= ${GROWTH_TARGET}x`,
      status: statusOf(foldGrowth, (v) => v <= GROWTH_TARGET),
    },
    {
      bench: 'ui-projection',
      metric: '  growth, rebuilding the whole chat per event (the old way)',
      value: times(rebuildGrowth, 1),
      target: '',
      status: 'info',
    },
    { bench: 'ui-projection', metric: 'speed-up of the fold over the rebuild, at 10,000 events', value: times(speedup, 1), target: '', status: 'info' },
  ];
  const notes =
    foldGrowth > GROWTH_TARGET
      ? [`ui-projection: folding an event costs ${foldGrowth}x more with 10,000 events than with 100 (target <= ${GROWTH_TARGET}x).`]
      : [];
  return {
    results: {
      fold_growth_10000_over_100: foldGrowth,
      rebuild_growth_10000_over_100: rebuildGrowth,
      speedup_10000: speedup,
      us_per_event: {
        fold_100: round(ms.fold.small * 1000, 3),
        fold_10000: round(ms.fold.large * 1000, 3),
        rebuild_100: round(ms.rebuild.small * 1000, 3),
        rebuild_10000: round(ms.rebuild.large * 1000, 3),
      },
    },
    rows,
    notes,
  };
}
