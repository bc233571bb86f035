import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ToolUseBlock } from '../../../src/core/parse/types.js';
import { COMPLETION_SHOWN_NOTE, NATIVE_NO_TOOL_REMINDER, NO_RESULT_NOTE, NO_TOOL_REMINDER, apiProjection } from '../../../src/core/task/api-projection.js';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';

function log(...events: NewEvent[]): TaskEvent[] {
  return events.map((event, seq) => ({ ...event, seq, ts: 1000 + seq }) as TaskEvent);
}

const NATIVE = { toolProtocol: 'native' } as const;
const usage = { inputTokens: 1, outputTokens: 1 };
const started: NewEvent = { type: 'task_started', taskId: 't', task: 'Fix it', cwd: '/w', provider: 'openai', model: 'm', mode: 'act', modeSlug: 'code' };
const call = (id: string, name: string, params: Record<string, string>): ToolUseBlock => ({ kind: 'tool', name, params, partial: false, id });
type ResponseEvent = Extract<NewEvent, { type: 'model_response' }>;
const respond = (text: string, ...calls: ToolUseBlock[]): ResponseEvent => ({
  type: 'model_response',
  text,
  reasoning: '',
  blocks: [...(text ? [{ kind: 'text' as const, text, partial: false }] : []), ...calls],
  usage,
});
const requested = (callId: string, toolUseId: string, tool: string, params: Record<string, string> = {}): NewEvent => ({
  type: 'tool_requested',
  callId,
  tool,
  params,
  toolUseId,
});

describe('apiProjection with native tool calling', () => {
  test('calls become tool_use parts and results tool_result parts in call order, before the text', () => {
    const messages = apiProjection(
      log(
        started,
        { type: 'request_started', environmentDetails: 'ENV1' },
        respond('Two reads.', call('u1', 'read_file', { path: 'a.ts' }), call('u2', 'read_file', { path: 'b.ts' })),
        requested('c1', 'u1', 'read_file', { path: 'a.ts' }),
        { type: 'tool_result', callId: 'c1', tool: 'read_file', output: '1 | a' },
        requested('c2', 'u2', 'read_file', { path: 'b.ts' }),
        { type: 'tool_error', callId: 'c2', tool: 'read_file', error: 'no such file', mistake: false },
        { type: 'request_started', environmentDetails: 'ENV2' },
      ),
      NATIVE,
    );
    assert.deepEqual(messages.slice(1), [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Two reads.' },
          { type: 'tool_use', id: 'u1', name: 'read_file', input: { path: 'a.ts' } },
          { type: 'tool_use', id: 'u2', name: 'read_file', input: { path: 'b.ts' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'u1', name: 'read_file', content: '1 | a' },
          { type: 'tool_result', toolUseId: 'u2', name: 'read_file', content: 'no such file', isError: true },
          { type: 'text', text: '<environment_details>\nENV2\n</environment_details>' },
        ],
      },
    ]);
  });

  test("a denial is the call's result; a call without any outcome gets the no-result note", () => {
    const messages = apiProjection(
      log(
        started,
        respond('', call('u1', 'write_to_file', { path: 'a.ts' }), call('u2', 'read_file', { path: 'b.ts' })),
        requested('c1', 'u1', 'write_to_file', { path: 'a.ts' }),
        { type: 'approval_asked', callId: 'c1' },
        { type: 'approval_answered', callId: 'c1', approved: false, feedback: 'use tabs' },
        { type: 'task_resumed' },
      ),
      NATIVE,
    );
    const user = messages[2]!.content as readonly { type: string; content?: string; isError?: boolean }[];
    assert.equal(user[0]!.content, 'The user denied this operation and said:\n<feedback>\nuse tabs\n</feedback>');
    assert.deepEqual([user[1]!.content, user[1]!.isError], [NO_RESULT_NOTE, true]);
    assert.equal(user[2]!.type, 'text');
  });

  test('the completion call gets a note when the conversation goes on; outcomes logged out of order are sorted', () => {
    const messages = apiProjection(
      log(
        started,
        respond('', call('u1', 'attempt_completion', { result: 'Done' }), call('u2', 'read_file', { path: 'b.ts' })),
        requested('c1', 'u1', 'attempt_completion', { result: 'Done' }),
        requested('c2', 'u2', 'read_file', { path: 'b.ts' }),
        { type: 'tool_error', callId: 'c2', tool: 'read_file', error: 'Not executed because attempt_completion ended the task before it.', mistake: false },
        { type: 'task_completed', result: 'Done' },
        { type: 'user_message', text: 'One more thing' },
      ),
      NATIVE,
    );
    const results = (messages[2]!.content as readonly { type: string; toolUseId?: string; content?: string }[]).filter((p) => p.type === 'tool_result');
    assert.deepEqual(
      results.map((r) => [r.toolUseId, r.content]),
      [
        ['u1', COMPLETION_SHOWN_NOTE],
        ['u2', 'Not executed because attempt_completion ended the task before it.'],
      ],
    );
  });

  test('a result whose call the condense summary replaced stays text; no result is orphaned', () => {
    const messages = apiProjection(
      log(
        started,
        respond('', call('u1', 'condense', { context: 'summary' })),
        requested('c1', 'u1', 'condense', { context: 'summary' }),
        { type: 'history_condensed', summary: 'The story so far.' },
        { type: 'tool_result', callId: 'c1', tool: 'condense', output: 'Condensed.' },
        { type: 'request_started', environmentDetails: '' },
      ),
      NATIVE,
    );
    assert.equal(messages.length, 1);
    assert.equal(typeof messages[0]!.content, 'string');
    assert.match(messages[0]!.content as string, /The story so far\.[\s\S]*\[condense\] Result:\nCondensed\./);
  });

  test('each piece of signed reasoning goes back in its place among the calls, whatever its vendor', () => {
    const item = (id: string) => ({ type: 'reasoning_item' as const, id, encryptedContent: `enc-${id}`, summary: [`sum ${id}`] });
    const messages = apiProjection(
      log(
        started,
        {
          ...respond('Reading.', call('u1', 'read_file', { path: 'a' }), call('u2', 'read_file', { path: 'b' })),
          signedReasoning: [{ type: 'redacted_thinking', data: 'R' }, { text: 'hmm', signature: 'sig' }, item('rs1'), { ...item('rs2'), afterCalls: 1 }],
        },
        requested('c1', 'u1', 'read_file', { path: 'a' }),
        { type: 'tool_result', callId: 'c1', tool: 'read_file', output: 'x' },
        requested('c2', 'u2', 'read_file', { path: 'b' }),
        { type: 'tool_result', callId: 'c2', tool: 'read_file', output: 'y' },
      ),
      NATIVE,
    );
    assert.deepEqual(messages[1]!.content, [
      { type: 'redacted_thinking', data: 'R' },
      { type: 'thinking', text: 'hmm', signature: 'sig' },
      item('rs1'),
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'u1', name: 'read_file', input: { path: 'a' } },
      item('rs2'),
      { type: 'tool_use', id: 'u2', name: 'read_file', input: { path: 'b' } },
    ]);
  });

  test('signed reasoning a hand-edited log left incomplete is dropped, the rest of the turn kept', () => {
    const broken = [
      { type: 'reasoning_item', id: 'rs1', summary: [] },
      { type: 'redacted_thinking' },
      { text: 'no signature' },
      { type: 'reasoning_item', id: 'rs2', encryptedContent: 'e2', summary: ['s', 7] },
    ] as unknown as ResponseEvent['signedReasoning'];
    const messages = apiProjection(
      log(started, { ...respond('', call('u1', 'read_file', { path: 'a' })), signedReasoning: broken }, requested('c1', 'u1', 'read_file', { path: 'a' }), {
        type: 'tool_result',
        callId: 'c1',
        tool: 'read_file',
        output: 'x',
      }),
      NATIVE,
    );
    assert.deepEqual(messages[1]!.content, [
      { type: 'reasoning_item', id: 'rs2', encryptedContent: 'e2', summary: ['s'] },
      { type: 'tool_use', id: 'u1', name: 'read_file', input: { path: 'a' } },
    ]);
  });

  test('signed reasoning leads the assistant turn; the reminder speaks of tool calls, not XML', () => {
    const messages = apiProjection(
      log(
        started,
        { ...respond('', call('u1', 'read_file', { path: 'a' })), signedReasoning: [{ text: 'hmm', signature: 'sig' }] },
        requested('c1', 'u1', 'read_file', { path: 'a' }),
        { type: 'tool_result', callId: 'c1', tool: 'read_file', output: 'x' },
        respond('Just talk.'),
        { type: 'no_tool_used' },
      ),
      NATIVE,
    );
    assert.deepEqual((messages[1]!.content as readonly object[])[0], { type: 'thinking', text: 'hmm', signature: 'sig' });
    assert.deepEqual(messages[3], { role: 'assistant', content: 'Just talk.' });
    assert.equal(messages[4]!.content, NATIVE_NO_TOOL_REMINDER);
  });

  test('XML-era calls stay text under native, and native calls are plain text under XML', () => {
    const events = log(
      started,
      {
        type: 'model_response',
        text: '<read_file>\n<path>a</path>\n</read_file>',
        reasoning: '',
        blocks: [{ kind: 'tool', name: 'read_file', params: { path: 'a' }, partial: false }],
        usage,
      },
      { type: 'tool_requested', callId: 'c1', tool: 'read_file', params: { path: 'a' } },
      { type: 'tool_result', callId: 'c1', tool: 'read_file', output: 'x' },
      { ...respond('', call('u2', 'read_file', { path: 'b' })), text: '<read_file>\n<path>b</path>\n</read_file>' },
      requested('c2', 'u2', 'read_file', { path: 'b' }),
      { type: 'tool_result', callId: 'c2', tool: 'read_file', output: 'y' },
      { type: 'no_tool_used' },
    );
    const native = apiProjection(events, NATIVE);
    assert.equal(native[1]!.content, '<read_file>\n<path>a</path>\n</read_file>');
    assert.equal(native[2]!.content, "[read_file for 'a'] Result:\nx");
    assert.equal((native[3]!.content as readonly { type: string }[])[0]!.type, 'tool_use');
    const xml = apiProjection(events);
    assert.ok(xml.every((m) => typeof m.content === 'string'));
    assert.equal(xml[3]!.content, '<read_file>\n<path>b</path>\n</read_file>');
    assert.equal(xml[4]!.content, `[read_file for 'b'] Result:\ny\n\n${NO_TOOL_REMINDER}`);
  });
});
