import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';
import { loopCounters } from '../../../src/core/task/loop-counters.js';

function log(...events: NewEvent[]): TaskEvent[] {
  return events.map((event, seq) => ({ ...event, seq, ts: seq }) as TaskEvent);
}

const started: NewEvent = { type: 'task_started', taskId: 't', task: 'x', cwd: '/w', provider: 'openai', model: 'm', mode: 'act', modeSlug: 'code' };
const request: NewEvent = { type: 'request_started', environmentDetails: '' };
const reply: NewEvent = { type: 'model_response', text: '', reasoning: '', blocks: [], usage: { inputTokens: 0, outputTokens: 0 } };
const noTool: NewEvent[] = [request, reply, { type: 'no_tool_used' }];
const badCall: NewEvent[] = [
  request,
  reply,
  { type: 'tool_requested', callId: 'c', tool: 'read_file', params: {} },
  { type: 'tool_error', callId: 'c', tool: 'read_file', error: 'missing path', mistake: true },
];
const goodCall: NewEvent[] = [
  request,
  reply,
  { type: 'tool_requested', callId: 'g', tool: 'list_files', params: {} },
  { type: 'tool_result', callId: 'g', tool: 'list_files', output: 'a' },
];
const failedCall: NewEvent[] = [
  request,
  reply,
  { type: 'tool_requested', callId: 'f', tool: 'execute_command', params: {} },
  { type: 'tool_error', callId: 'f', tool: 'execute_command', error: 'exit 1', mistake: false },
];

describe('loopCounters', () => {
  test("counts requests and mistakes in a row; a call that was not the model's fault ends the run", () => {
    assert.deepEqual(loopCounters(log(started, ...noTool, ...badCall)), { requests: 2, consecutiveMistakes: 2, autoApprovalsInARow: 0 });
    assert.deepEqual(loopCounters(log(started, ...noTool, ...goodCall, ...noTool)), { requests: 3, consecutiveMistakes: 1, autoApprovalsInARow: 0 });
    assert.deepEqual(loopCounters(log(started, ...noTool, ...failedCall)), { requests: 2, consecutiveMistakes: 0, autoApprovalsInARow: 0 });
  });

  test('a resume or a cancel keeps the counts; the user, a completion or a stop by error starts them again', () => {
    const mistakes = [started, ...noTool, ...noTool];
    assert.deepEqual(loopCounters(log(...mistakes, { type: 'task_aborted', reason: 'cancelled' }, { type: 'task_resumed' })), {
      requests: 2,
      consecutiveMistakes: 2,
      autoApprovalsInARow: 0,
    });
    assert.deepEqual(loopCounters(log(...mistakes, { type: 'user_message', text: 'use a tool' })), {
      requests: 0,
      consecutiveMistakes: 0,
      autoApprovalsInARow: 0,
    });
    assert.deepEqual(loopCounters(log(...mistakes, { type: 'error', message: 'Stopped after 2 consecutive mistakes' })), {
      requests: 0,
      consecutiveMistakes: 0,
      autoApprovalsInARow: 0,
    });
    assert.deepEqual(loopCounters(log(...mistakes, { type: 'task_completed', result: 'r' }, ...noTool)), {
      requests: 1,
      consecutiveMistakes: 1,
      autoApprovalsInARow: 0,
    });
  });

  test('a response whose outcome the log does not hold yet counts as neither', () => {
    assert.deepEqual(loopCounters(log(started, ...noTool, request, reply)), { requests: 2, consecutiveMistakes: 1, autoApprovalsInARow: 0 });
  });
});

test('auto-approvals in a row count until the user is asked, or speaks, again', () => {
  const auto = (callId: string): NewEvent => ({ type: 'tool_auto_approved', callId });
  assert.equal(
    loopCounters(log(started, auto('a'), auto('b'), { type: 'task_aborted', reason: 'cancelled' }, { type: 'task_resumed' }, auto('c'))).autoApprovalsInARow,
    3,
  );
  const asked: NewEvent = { type: 'approval_asked', callId: 'd', request: { callId: 'd', tool: 'read_file', params: {}, summary: 'Read a' } };
  assert.equal(loopCounters(log(started, auto('a'), auto('b'), asked, auto('e'))).autoApprovalsInARow, 1);
  assert.equal(loopCounters(log(started, auto('a'), { type: 'user_message', text: 'go on' })).autoApprovalsInARow, 0);
});
