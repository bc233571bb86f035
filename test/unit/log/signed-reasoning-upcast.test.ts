import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TaskEvent } from '../../../src/core/log/events.js';
import { upcastLine } from '../../../src/core/log/upcast-events.js';
import { apiProjection } from '../../../src/core/task/api-projection.js';

const started = { type: 'task_started', seq: 0, ts: 1, taskId: 't', task: 'Read', cwd: '/w', provider: 'anthropic', model: 'm', mode: 'act', modeSlug: 'code' };
const response = (v: number, signedReasoning: object[]) => ({
  v,
  type: 'model_response',
  seq: 1,
  ts: 2,
  reasoning: 'r',
  blocks: [{ kind: 'tool', name: 'read_file', partial: false, id: 'u1', params: { path: 'a' } }],
  usage: { inputTokens: 1, outputTokens: 1 },
  signedReasoning,
});
const result = [
  { type: 'tool_requested', seq: 2, ts: 3, callId: 'c1', tool: 'read_file', params: { path: 'a' }, toolUseId: 'u1' },
  { type: 'tool_result', seq: 3, ts: 4, callId: 'c1', tool: 'read_file', output: 'x' },
];

describe('signed reasoning in logs of every version', () => {
  test('a version 5 thinking block (no type) reads and goes back as it did', () => {
    const events = [started, response(5, [{ text: 'hmm', signature: 'sig' }]), ...result].map((line, i, all) =>
      upcastLine(line as never, all.slice(0, i) as never),
    ) as unknown as TaskEvent[];
    const messages = apiProjection(events, { toolProtocol: 'native' });
    assert.deepEqual((messages[1]!.content as readonly object[])[0], { type: 'thinking', text: 'hmm', signature: 'sig' });
  });

  test('version 6 entries of each kind read as written; a newer version is refused', () => {
    const entries = [
      { type: 'redacted_thinking', data: 'R' },
      { type: 'reasoning_item', id: 'rs1', encryptedContent: 'E', summary: ['s'], afterCalls: 1 },
    ];
    const line = upcastLine(response(6, entries) as never);
    assert.deepEqual(line.signedReasoning, entries);
    assert.throws(() => upcastLine(response(7, entries) as never), /written by a newer Smith/);
  });
});
