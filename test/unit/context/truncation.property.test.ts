import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { requestBudget } from '../../../src/core/context/context-window.js';
import { estimateRequestTokens } from '../../../src/core/context/token-estimate.js';
import { hiddenSeqs, planTruncation } from '../../../src/core/context/truncation-plan.js';
import { SUPERSEDED_READ_NOTE, TRUNCATION_NOTE, apiProjection } from '../../../src/core/task/api-projection.js';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';
import { TaskLog } from '../../../src/core/log/task-log.js';

type Turn = { kind: 'result' | 'error' | 'reject' | 'none'; size: number };

/** Builds a realistic log: the task, then turns of request → response → tool outcome. */
function buildLog(turns: readonly Turn[]): TaskLog {
  const log = TaskLog.inMemory('t');
  const add = (event: NewEvent) => log.append(event);
  add({ type: 'task_started', taskId: 't', task: 'THE TASK', cwd: '/w', provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
  turns.forEach((turn, i) => {
    add({ type: 'request_started', environmentDetails: `env ${i}` });
    const tool = { kind: 'tool' as const, name: 'read_file', params: { path: `f${i}.ts` }, partial: false };
    add({
      type: 'model_response',
      text: `<read_file><path>f${i}.ts</path></read_file>`,
      reasoning: '',
      blocks: turn.kind === 'none' ? [] : [tool],
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    if (turn.kind === 'none') {
      add({ type: 'no_tool_used' });
      return;
    }
    const callId = `c${i}`;
    add({ type: 'tool_requested', callId, tool: 'read_file', params: { path: `f${i}.ts` } });
    const body = `turn ${i} `.repeat(turn.size);
    if (turn.kind === 'result') add({ type: 'tool_result', callId, tool: 'read_file', output: body });
    if (turn.kind === 'error') add({ type: 'tool_error', callId, tool: 'read_file', error: body, mistake: true });
    if (turn.kind === 'reject') {
      add({ type: 'approval_asked', callId });
      add({ type: 'approval_answered', callId, approved: false, feedback: body });
    }
  });
  add({ type: 'request_started', environmentDetails: 'env last' });
  return log;
}

/** Truncates like the context guard does until the request fits or nothing is left to drop. */
function truncateToFit(log: TaskLog, budget: number): void {
  while (estimateRequestTokens('system', apiProjection(log.events)) > budget) {
    const range = planTruncation(log.events, 0.5);
    if (!range) return;
    log.append({ type: 'history_truncated', ...range, reason: 'test' });
  }
}

const turnArb = fc.record({ kind: fc.constantFrom<Turn['kind']>('result', 'error', 'reject', 'none'), size: fc.integer({ min: 1, max: 400 }) });

describe('truncation (property)', () => {
  test('keeps the first message, never orphans a tool result, alternates roles, and fits when it can', () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 0, maxLength: 40 }), fc.integer({ min: 300, max: 20_000 }), (turns, window) => {
        const log = buildLog(turns);
        const budget = requestBudget({ contextWindow: window, maxOutputTokens: 100 });
        truncateToFit(log, budget);
        const events: readonly TaskEvent[] = log.events;
        const messages = apiProjection(events);

        assert.equal(messages[0]!.role, 'user');
        assert.match(messages[0]!.content, /^<task>\nTHE TASK\n<\/task>/);
        for (const [i, m] of messages.entries()) assert.equal(m.role, i % 2 === 0 ? 'user' : 'assistant');

        // A visible tool outcome always has its call's response visible too.
        const hidden = hiddenSeqs(events);
        let turnStart = -1;
        for (const event of events) {
          if (event.type === 'model_response') turnStart = event.seq;
          if (event.type === 'tool_result' || event.type === 'tool_error' || event.type === 'approval_answered') {
            assert.equal(hidden.has(event.seq), hidden.has(turnStart), `outcome ${event.seq} split from its call ${turnStart}`);
          }
        }
        // The two latest turns always stay.
        const responses = events.filter((e) => e.type === 'model_response').slice(-2);
        for (const r of responses) assert.ok(!hidden.has(r.seq));

        const tokens = estimateRequestTokens('system', messages);
        if (tokens > budget) assert.equal(planTruncation(events, 0.5), undefined, 'over budget although turns could still be dropped');
        if (hidden.size > 0) assert.ok(messages.some((m) => m.content.includes(TRUNCATION_NOTE)));
      }),
      { numRuns: 150 },
    );
  });
});

describe('repeated reads', () => {
  test('an older identical read is replaced by a short note; a changed file is kept', () => {
    const log = TaskLog.inMemory('t');
    log.append({ type: 'task_started', taskId: 't', task: 'x', cwd: '/w', provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
    const read = (i: number, output: string) => {
      log.append({ type: 'model_response', text: `r${i}`, reasoning: '', blocks: [], usage: { inputTokens: 0, outputTokens: 0 } });
      log.append({ type: 'tool_requested', callId: `c${i}`, tool: 'read_file', params: { path: 'a.ts' } });
      log.append({ type: 'tool_result', callId: `c${i}`, tool: 'read_file', output });
    };
    read(1, 'SAME CONTENT');
    read(2, 'CHANGED CONTENT');
    read(3, 'SAME CONTENT');
    const users = apiProjection(log.events)
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    assert.ok(users[1]!.includes(SUPERSEDED_READ_NOTE) && !users[1]!.includes('SAME CONTENT'));
    assert.ok(users[2]!.includes('CHANGED CONTENT'));
    assert.ok(users[3]!.includes('SAME CONTENT'));
  });
});
