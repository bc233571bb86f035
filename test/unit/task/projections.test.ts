import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NO_TOOL_REMINDER, apiProjection, resultTextsIn } from '../../../src/core/task/api-projection.js';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';
import { uiProjection, usageTotals } from '../../../src/core/task/ui-projection.js';

function log(...events: NewEvent[]): TaskEvent[] {
  return events.map((event, seq) => ({ ...event, seq, ts: 1000 + seq }) as TaskEvent);
}

const started: NewEvent = { type: 'task_started', taskId: 't', task: 'Fix the bug', cwd: '/w', provider: 'openai', model: 'm', mode: 'act', modeSlug: 'code' };
const readCall = { kind: 'tool' as const, name: 'read_file', params: { path: 'a.ts' }, partial: false };

describe('apiProjection', () => {
  test('turns a task with a tool call into alternating user/assistant messages', () => {
    const messages = apiProjection(
      log(
        started,
        { type: 'request_started', environmentDetails: 'ENV1' },
        {
          type: 'model_response',
          text: '<read_file>\n<path>a.ts</path>\n</read_file>',
          reasoning: '',
          blocks: [readCall],
          usage: { inputTokens: 10, outputTokens: 5 },
        },
        { type: 'tool_requested', callId: 'c1', tool: 'read_file', params: { path: 'a.ts' } },
        { type: 'tool_result', callId: 'c1', tool: 'read_file', output: '1 | x' },
        { type: 'request_started', environmentDetails: 'ENV2' },
      ),
    );
    assert.deepEqual(messages, [
      { role: 'user', content: '<task>\nFix the bug\n</task>\n\n<environment_details>\nENV1\n</environment_details>' },
      { role: 'assistant', content: '<read_file>\n<path>a.ts</path>\n</read_file>' },
      { role: 'user', content: "[read_file for 'a.ts'] Result:\n1 | x\n\n<environment_details>\nENV2\n</environment_details>" },
    ]);
  });

  test("a rejection carries the user's feedback; an error and the no-tool reminder reach the model", () => {
    const messages = apiProjection(
      log(
        started,
        { type: 'model_response', text: 'edit', reasoning: '', blocks: [], usage: { inputTokens: 0, outputTokens: 0 } },
        { type: 'tool_requested', callId: 'c1', tool: 'write_to_file', params: { path: 'b.ts', content: 'x' } },
        { type: 'approval_asked', callId: 'c1' },
        { type: 'approval_answered', callId: 'c1', approved: false, feedback: 'use tabs' },
        { type: 'model_response', text: 'hmm', reasoning: '', blocks: [], usage: { inputTokens: 0, outputTokens: 0 } },
        { type: 'no_tool_used' },
        { type: 'model_response', text: '<delete_file>', reasoning: '', blocks: [], usage: { inputTokens: 0, outputTokens: 0 } },
        { type: 'tool_error', callId: 'x', tool: 'delete_file', error: 'not a tool', mistake: true },
      ),
    );
    assert.equal(messages[2]!.content, "[write_to_file for 'b.ts'] The user denied this operation and said:\n<feedback>\nuse tabs\n</feedback>");
    assert.equal(messages[4]!.content, NO_TOOL_REMINDER);
    assert.equal(messages[6]!.content, '[delete_file] Error:\nnot a tool');
  });

  test('a resumed task tells the model it was interrupted, naming an unfinished tool call', () => {
    const messages = apiProjection(
      log(
        started,
        { type: 'request_started', environmentDetails: '' },
        { type: 'model_response', text: 'run', reasoning: '', blocks: [], usage: { inputTokens: 0, outputTokens: 0 } },
        { type: 'tool_requested', callId: 'c1', tool: 'write_to_file', params: { path: 'b.ts' } },
        { type: 'task_resumed' },
        { type: 'request_started', environmentDetails: 'E' },
      ),
    );
    assert.equal(messages.length, 3);
    assert.match(messages[2]!.content, /^\[TASK RESUMPTION\] This task was interrupted/);
    assert.match(messages[2]!.content, /The last tool call \(write_to_file\) was interrupted/);
  });

  test('a request that died before its response merges into the next user message', () => {
    const messages = apiProjection(
      log(started, { type: 'request_started', environmentDetails: 'A' }, { type: 'task_resumed' }, { type: 'request_started', environmentDetails: 'B' }),
    );
    assert.equal(messages.length, 1);
    assert.equal(messages[0]!.role, 'user');
    assert.match(messages[0]!.content, /A[\s\S]*TASK RESUMPTION[\s\S]*B/);
  });
});

describe('uiProjection', () => {
  test('one card per tool call that follows its status, plus text, errors and completion', () => {
    const events = log(
      started,
      {
        type: 'model_response',
        text: '',
        reasoning: 'r',
        blocks: [{ kind: 'thinking', text: 'plan', partial: false }, { kind: 'text', text: 'Reading.', partial: false }, readCall],
        usage: { inputTokens: 7, outputTokens: 3, cacheReadTokens: 2 },
      },
      { type: 'tool_requested', callId: 'c1', tool: 'read_file', params: { path: 'a.ts' } },
      { type: 'approval_asked', callId: 'c1' },
      { type: 'approval_answered', callId: 'c1', approved: false, feedback: 'no' },
      { type: 'model_response', text: '', reasoning: '', blocks: [], usage: { inputTokens: 1, outputTokens: 1 } },
      { type: 'tool_requested', callId: 'c2', tool: 'read_file', params: { path: 'b.ts' } },
      { type: 'tool_result', callId: 'c2', tool: 'read_file', output: 'ok' },
      { type: 'task_completed', result: 'Done', command: 'npm test' },
    );
    const ui = uiProjection(events);
    assert.deepEqual(
      ui.map((m) => (m.kind === 'tool' ? `tool:${m.callId}:${m.status}:${m.feedback ?? m.output ?? ''}` : m.kind)),
      ['task', 'assistant', 'tool:c1:rejected:no', 'tool:c2:done:ok', 'completion'],
    );
    const assistant = ui[1];
    assert.equal(assistant?.kind === 'assistant' && `${assistant.text}|${assistant.reasoning}`, 'Reading.|r\n\nplan');
    assert.deepEqual(usageTotals(events), { inputTokens: 8, outputTokens: 4, cacheReadTokens: 2, cacheWriteTokens: 0 });
  });

  test('a resume marks unfinished tool calls as interrupted', () => {
    const ui = uiProjection(log(started, { type: 'tool_requested', callId: 'c1', tool: 'read_file', params: {} }, { type: 'task_resumed' }));
    assert.deepEqual(
      ui.map((m) => (m.kind === 'tool' ? m.status : m.kind)),
      ['task', 'interrupted', 'notice'],
    );
  });
});

describe('uiProjection: who approved a call', () => {
  test('the user, the auto-approve settings, or an allow rule; a rejection keeps its feedback', () => {
    const write = (callId: string): NewEvent => ({ type: 'tool_requested', callId, tool: 'write_to_file', params: { path: `${callId}.ts`, content: 'x' } });
    const done = (callId: string): NewEvent => ({ type: 'tool_result', callId, tool: 'write_to_file', output: 'ok' });
    const tools = uiProjection(
      log(
        started,
        write('a'),
        { type: 'approval_asked', callId: 'a', request: { callId: 'a', tool: 'write_to_file', summary: 'Write a.ts' } },
        { type: 'approval_answered', callId: 'a', approved: true, feedback: 'fine' },
        done('a'),
        write('b'),
        { type: 'tool_auto_approved', callId: 'b' },
        done('b'),
        write('c'),
        { type: 'tool_auto_approved', callId: 'c', rule: 'Edit(src/**)' },
        done('c'),
        write('d'),
        { type: 'approval_asked', callId: 'd', request: { callId: 'd', tool: 'write_to_file', summary: 'Write d.ts' } },
        { type: 'approval_answered', callId: 'd', approved: false, feedback: 'no' },
      ),
    ).filter((m) => m.kind === 'tool');
    assert.deepEqual(
      tools.map((m) => (m.kind === 'tool' ? [m.callId, m.status, m.approvedBy, m.rule, m.feedback] : [])),
      [
        ['a', 'done', 'user', undefined, 'fine'],
        ['b', 'done', 'auto', undefined, undefined],
        ['c', 'done', 'auto', 'Edit(src/**)', undefined],
        ['d', 'rejected', undefined, undefined, 'no'],
      ],
    );
  });
});

describe('resultTextsIn', () => {
  test('finds the tool results the XML protocol writes into a user message, and nothing else', () => {
    const text =
      "[read_file for 'a.ts'] Result:\n1 | x\n2 | y\n\n[execute_command for 'npm test'] Error:\nexit 1\n\n<environment_details>\nENV\n</environment_details>";
    assert.deepEqual(resultTextsIn(text), ["[read_file for 'a.ts'] Result:\n1 | x\n2 | y", "[execute_command for 'npm test'] Error:\nexit 1"]);
    assert.deepEqual(resultTextsIn('<user_message>\n[not a result] but words\n</user_message>'), []);
  });
});
