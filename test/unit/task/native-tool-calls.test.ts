import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiProvider, ApiRequest, ApiStreamChunk } from '../../../src/core/providers/types.js';
import { runModelTurn } from '../../../src/core/task/model-turn.js';
import { argumentsErrorMessage, nativeMissingParams, nativeToolBlock } from '../../../src/core/task/native-tool-calls.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';

const toolCall = (args: string, name = 'read_file') => ({ type: 'tool_call' as const, id: 'u1', name, arguments: args });

describe('nativeToolBlock', () => {
  test('string values pass through; numbers, booleans, objects become their JSON text; null is left out', () => {
    const block = nativeToolBlock(toolCall('{"path":"a.ts","start_line":3,"flag":true,"arguments":{"city":"Oslo"},"end_line":null}'));
    assert.deepEqual(block.params, { path: 'a.ts', start_line: '3', flag: 'true', arguments: '{"city":"Oslo"}' });
    assert.equal(block.id, 'u1');
    assert.equal(block.partial, false);
    assert.equal(block.argumentsError, undefined);
  });

  test('empty arguments mean no parameters', () => {
    assert.deepEqual(nativeToolBlock(toolCall('')).params, {});
  });

  test('malformed JSON and non-objects are refused with the text the model sent', () => {
    const broken = nativeToolBlock(toolCall('{"path": "a.ts"'));
    assert.deepEqual(broken.params, {});
    assert.match(broken.argumentsError!, /^are not valid JSON \(.+\)\. You sent:\n\{"path": "a\.ts"$/);
    assert.match(nativeToolBlock(toolCall('["a.ts"]')).argumentsError!, /^are not a JSON object/);
    assert.match(nativeToolBlock(toolCall('"a.ts"')).argumentsError!, /^are not a JSON object/);
    const message = argumentsErrorMessage(broken, readFileTool.spec);
    assert.match(message, /^The arguments of your read_file call are not valid JSON/);
    assert.match(message, /Nothing was executed\. Call read_file again .*\{"path":"…"\}\.$/);
  });

  test('a missing parameter is named without the XML example', () => {
    const message = nativeMissingParams(readFileTool.spec, nativeToolBlock(toolCall('{}')))!;
    assert.equal(message, "Missing value for required parameter 'path' of read_file. Call read_file again with all its required parameters (path).");
    assert.equal(nativeMissingParams(readFileTool.spec, nativeToolBlock(toolCall('{"path":"a"}'))), undefined);
  });
});

function providerOf(chunks: ApiStreamChunk[], seen: ApiRequest[] = []): ApiProvider {
  return {
    id: 'openai',
    modelId: 'm',
    async *createMessage(request) {
      seen.push(request);
      yield* chunks;
    },
  };
}

describe('runModelTurn with native tool calling', () => {
  const grammar = new ToolRegistry([readFileTool]).grammar();
  const native = { systemPrompt: 's', messages: [{ role: 'user' as const, content: 'go' }], tools: [] };

  test('keeps every call in order after the text, separates thinking, and ignores XML-looking text', async () => {
    const turn = await runModelTurn(
      providerOf([
        { type: 'text', text: '<thinking>plan</thinking>I will read <read_file><path>x</path></read_file> both.' },
        toolCall('{"path":"a"}'),
        { type: 'tool_call', id: 'u2', name: 'read_file', arguments: '{"path":"b"}' },
        { type: 'usage', usage: { inputTokens: 5, outputTokens: 2 } },
      ]),
      native,
      grammar,
      () => {},
    );
    assert.deepEqual(
      turn.tools.map((t) => [t.id, t.params.path]),
      [
        ['u1', 'a'],
        ['u2', 'b'],
      ],
    );
    assert.deepEqual(
      turn.blocks.map((b) => b.kind),
      ['thinking', 'text', 'tool', 'tool'],
    );
    assert.equal(turn.ignoredTools, 0);
  });

  test('collects the reasoning with its signatures', async () => {
    const turn = await runModelTurn(
      providerOf([
        { type: 'reasoning', text: 'first ' },
        { type: 'reasoning', text: 'thought' },
        { type: 'reasoning_signature', signature: 'S1' },
        toolCall('{"path":"a"}'),
      ]),
      native,
      grammar,
      () => {},
    );
    assert.deepEqual(turn.signedReasoning, [{ text: 'first thought', signature: 'S1' }]);
    assert.equal(turn.reasoning, 'first thought');
  });

  test('whole pieces of reasoning are kept in order, each with how many calls came before it', async () => {
    const item = { type: 'reasoning_item' as const, id: 'rs1', encryptedContent: 'E1', summary: ['Plan.'] };
    const turn = await runModelTurn(
      providerOf([
        { type: 'signed_reasoning', part: { type: 'redacted_thinking', data: 'R' } },
        { type: 'reasoning', text: 'Plan.' },
        { type: 'signed_reasoning', part: item },
        toolCall('{"path":"a"}'),
        { type: 'reasoning', text: 'More.' },
        { type: 'signed_reasoning', part: { ...item, id: 'rs2', summary: ['More.'] } },
        toolCall('{"path":"b"}'),
      ]),
      native,
      grammar,
      () => {},
    );
    assert.deepEqual(turn.signedReasoning, [{ type: 'redacted_thinking', data: 'R' }, item, { ...item, id: 'rs2', summary: ['More.'], afterCalls: 1 }]);
    assert.equal(turn.reasoning, 'Plan.More.');
  });

  test('without tools in the request (XML), native calls a server sends anyway are ignored', async () => {
    const turn = await runModelTurn(
      providerOf([{ type: 'text', text: '<read_file>\n<path>a</path>\n</read_file>' }, toolCall('{"path":"b"}')]),
      { systemPrompt: 's', messages: [{ role: 'user', content: 'go' }] },
      grammar,
      () => {},
    );
    assert.deepEqual(
      turn.tools.map((t) => [t.id, t.params.path]),
      [[undefined, 'a']],
    );
  });
});
