// Large old tool results reach the model as their beginning and end, once a shortening is logged;
// the results of the last turns, small results and later results stay whole.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TaskEvent } from '../../../src/core/log/events.js';
import { apiProjection } from '../../../src/core/task/api-projection.js';
import { planShortening, shortenedOutput } from '../../../src/core/context/result-shortening.js';
import { condenseTrigger, contextAction } from '../../../src/core/context/context-window.js';

const big = (name: string) => Array.from({ length: 600 }, (_, i) => `${name} line ${i} ${'y'.repeat(30)}`).join('\n');

/** A log of `turns` reads, each result `output(i)`. */
function readLog(turns: number, output: (i: number) => string): TaskEvent[] {
  const events: TaskEvent[] = [{ type: 'task_started', task: 'read', seq: 0, ts: 0 } as TaskEvent];
  for (let i = 0; i < turns; i++) {
    const seq = events.length;
    events.push(
      { type: 'request_started', seq, ts: 0 } as TaskEvent,
      {
        type: 'model_response',
        text: `<read_file><path>f${i}</path></read_file>`,
        reasoning: '',
        blocks: [],
        usage: { inputTokens: 0, outputTokens: 0 },
        seq: seq + 1,
        ts: 0,
      } as unknown as TaskEvent,
      { type: 'tool_requested', callId: `c${i}`, tool: 'read_file', params: { path: `f${i}` }, seq: seq + 2, ts: 0 } as TaskEvent,
      { type: 'tool_result', callId: `c${i}`, tool: 'read_file', output: output(i), seq: seq + 3, ts: 0 } as TaskEvent,
    );
  }
  return events;
}

test('only results older than the last turns, and large, are planned; a second plan finds nothing new', () => {
  const events = readLog(6, (i) => (i === 1 ? 'small' : big(`f${i}`)));
  const plan = planShortening(events, 4, 800);
  assert.ok(plan);
  assert.equal(plan.results, 1, 'f0 only: f1 is small, f2 to f5 belong to the last four turns');
  const shortening = { type: 'tool_results_shortened', ...plan, seq: events.length, ts: 0 } as TaskEvent;
  assert.equal(planShortening([...events, shortening], 4, 800), undefined, 'nothing new to shorten');
  const text = JSON.stringify(apiProjection([...events, shortening]));
  assert.match(text, /f0 line 0 /);
  assert.match(text, /f0 line 599 /);
  assert.doesNotMatch(text, /f0 line 300 /);
  assert.match(text, /f2 line 300 /, 'a recent result is whole');
  assert.doesNotMatch(JSON.stringify(apiProjection(events)), /were left out to keep the context small/, 'without the event nothing is shortened');
});

test('a shortened result says how much was left out and cuts at line breaks; a small one is unchanged', () => {
  const output = big('g');
  const short = shortenedOutput(output, 400);
  assert.ok(short.length < output.length / 4);
  assert.match(
    short,
    /\n\[… \d+ lines \(about \d+ tokens\) of this old result were left out to keep the context small; run the tool again if you need them …\]\ng line \d+ /,
  );
  assert.equal(shortenedOutput('tiny', 400), 'tiny');
  const oneLine = 'z'.repeat(20_000);
  assert.ok(shortenedOutput(oneLine, 400).length < 5_000, 'a result without line breaks is cut anyway');
});

test('the condense trigger is the lower of the share and the token count', () => {
  const limits = { contextWindow: 1_000_000, maxOutputTokens: 32_000 };
  assert.equal(condenseTrigger(limits, { autoCondenseThreshold: 0.8 }), 800_000);
  assert.equal(condenseTrigger(limits, { autoCondenseThreshold: 0.8, autoCondenseTokens: 120_000 }), 120_000);
  assert.equal(condenseTrigger({ contextWindow: 100_000, maxOutputTokens: 8_000 }, { autoCondenseThreshold: 0.8, autoCondenseTokens: 120_000 }), 80_000);
  assert.equal(condenseTrigger(limits, { autoCondenseThreshold: 0 }), undefined);
  assert.equal(contextAction(130_000, limits, { autoCondenseThreshold: 0.8, autoCondenseTokens: 120_000 }, false), 'condense');
  assert.equal(contextAction(130_000, limits, { autoCondenseThreshold: 0.8 }, false), 'none');
  assert.equal(contextAction(130_000, limits, { autoCondenseThreshold: 0, autoCondenseTokens: 120_000 }, false), 'condense', 'tokens alone');
});
