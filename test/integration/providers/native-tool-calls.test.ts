// Each provider's native tool calling against the scripted server's real wire formats: tool
// definitions out, streamed calls assembled, and calls and results sent back in the vendor's shape.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import type { ApiRequest, ProviderConfig, ProviderMessage, ToolDefinition } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { collectOk } from './stream-helpers.js';

const TOOLS: ToolDefinition[] = [
  {
    name: 'read_file',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'The path.' } }, required: ['path'] },
  },
];

/** A conversation with two calls (one failed) answered, then a new instruction. */
const HISTORY: ProviderMessage[] = [
  { role: 'user', content: 'Read a and b' },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', text: 'plan', signature: 'SIG' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a' } },
      { type: 'tool_use', id: 'call_2', name: 'read_file', input: { path: 'b' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', toolUseId: 'call_1', name: 'read_file', content: '1 | a' },
      { type: 'tool_result', toolUseId: 'call_2', name: 'read_file', content: 'no such file', isError: true },
      { type: 'text', text: 'ENV' },
    ],
  },
];

const reply = {
  toolCalls: [
    { name: 'read_file', arguments: { path: 'src/a.ts', start_line: 2 }, id: 'vendor_id_0' },
    { name: 'read_file', arguments: { path: 'b.ts' }, id: 'vendor_id_1' },
  ],
};
const expect = { id: (i: number) => `vendor_id_${i}` };

describe('native tool calls through the real SDKs', () => {
  let server: ScriptedLlmServer;
  before(async () => (server = await startScriptedLlmServer()));
  after(() => server.close());
  beforeEach(() => (server.requests.length = 0));

  const provider = (vendor: ProviderConfig['provider'], model: string) =>
    createProvider({
      provider: vendor,
      model,
      apiKey: 'test-key',
      baseUrl: vendor === 'anthropic' ? server.anthropicBaseUrl : vendor === 'gemini' ? server.geminiBaseUrl : server.openAiBaseUrl,
      toolProtocol: 'native',
    });
  const request: ApiRequest = { systemPrompt: 'sys', messages: HISTORY, tools: TOOLS };

  test('OpenAI: function tools out; streamed argument deltas assembled per call; tool messages after tool_calls', async () => {
    server.enqueue({ text: 'Two reads.', toolCalls: reply.toolCalls });
    const p = provider('openai', 'gpt-4.1');
    assert.equal(p.toolProtocol, 'native');
    const result = await collectOk(p.createMessage(request));
    assert.equal(result.text, 'Two reads.');
    assert.deepEqual(result.toolCalls, [
      { type: 'tool_call', id: expect.id(0), name: 'read_file', arguments: '{"path":"src/a.ts","start_line":2}' },
      { type: 'tool_call', id: expect.id(1), name: 'read_file', arguments: '{"path":"b.ts"}' },
    ]);
    assert.equal(result.chunks.at(-1)!.type, 'usage');
    const { body } = server.requestAt(0);
    assert.deepEqual(body.tools, [{ type: 'function', function: { name: 'read_file', description: 'Read a file.', parameters: TOOLS[0]!.parameters } }]);
    assert.deepEqual(body.messages.slice(2), [
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
          { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"b"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '1 | a' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: no such file' },
      { role: 'user', content: 'ENV' },
    ]);
  });

  test('Anthropic: tool_use blocks assembled from input_json_delta; signed thinking, tool_use and tool_result sent back', async () => {
    server.enqueue({ reasoning: 'Think.', toolCalls: reply.toolCalls });
    const result = await collectOk(provider('anthropic', 'claude-sonnet-4-5').createMessage(request));
    assert.deepEqual(
      result.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [
        [expect.id(0), 'read_file', { path: 'src/a.ts', start_line: 2 }],
        [expect.id(1), 'read_file', { path: 'b.ts' }],
      ],
    );
    assert.equal(result.signatures.length, 1);
    assert.match(result.signatures[0]!, /^scripted-signature-\d+$/);
    const { body } = server.requestAt(0);
    assert.deepEqual(body.tools, [
      { name: 'read_file', description: 'Read a file.', input_schema: { type: 'object', properties: TOOLS[0]!.parameters.properties, required: ['path'] } },
    ]);
    assert.deepEqual(body.messages[1].content, [
      { type: 'thinking', thinking: 'plan', signature: 'SIG' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a' } },
      { type: 'tool_use', id: 'call_2', name: 'read_file', input: { path: 'b' } },
    ]);
    // The newest user turn carries the cache breakpoint on its last block.
    assert.deepEqual(body.messages[2].content, [
      { type: 'tool_result', tool_use_id: 'call_1', content: '1 | a' },
      { type: 'tool_result', tool_use_id: 'call_2', content: 'no such file', is_error: true },
      { type: 'text', text: 'ENV', cache_control: { type: 'ephemeral' } },
    ]);
  });

  test('Gemini: function declarations out; whole functionCall parts in with made-up ids; functionResponse parts back', async () => {
    // Gemini sends no ids of its own.
    const [first, second] = reply.toolCalls.map(({ id: _id, ...call }) => call);
    server.enqueue({ toolCalls: [{ ...first!, signature: 'thought-sig' }, second!] });
    const result = await collectOk(provider('gemini', 'gemini-2.5-flash').createMessage(request));
    assert.deepEqual(
      result.toolCalls.map((c) => [c.name, c.arguments, c.signature]),
      [
        ['read_file', '{"path":"src/a.ts","start_line":2}', 'thought-sig'],
        ['read_file', '{"path":"b.ts"}', undefined],
      ],
    );
    assert.ok(result.toolCalls.every((c) => /^call_smith_\w+$/.test(c.id)));
    assert.notEqual(result.toolCalls[0]!.id, result.toolCalls[1]!.id);
    const { body } = server.requestAt(0);
    assert.deepEqual(body.tools, [{ functionDeclarations: [{ name: 'read_file', description: 'Read a file.', parametersJsonSchema: TOOLS[0]!.parameters }] }]);
    assert.deepEqual(body.contents.slice(1), [
      {
        role: 'model',
        parts: [
          { text: 'Reading.' },
          { functionCall: { name: 'read_file', args: { path: 'a' }, id: 'call_1' } },
          { functionCall: { name: 'read_file', args: { path: 'b' }, id: 'call_2' } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'read_file', response: { output: '1 | a' }, id: 'call_1' } },
          { functionResponse: { name: 'read_file', response: { error: 'no such file' }, id: 'call_2' } },
          { text: 'ENV' },
        ],
      },
    ]);
  });

  test('without tools in the request nothing tool-related is sent (the XML protocol)', async () => {
    for (const [vendor, model] of [
      ['openai', 'gpt-4.1'],
      ['anthropic', 'claude-sonnet-4-5'],
      ['gemini', 'gemini-2.5-flash'],
    ] as const) {
      server.enqueue({ text: 'ok' });
      await collectOk(provider(vendor, model).createMessage({ systemPrompt: 'sys', messages: [{ role: 'user', content: 'hi' }] }));
    }
    assert.ok(server.requests.every((r) => r.body.tools === undefined));
  });
});

describe('an OpenAI-compatible server that leaves out the tool call index', () => {
  test('a new id starts a call and later deltas continue it', async () => {
    const frames = [
      { tool_calls: [{ id: 'x1', type: 'function', function: { name: 'read_file', arguments: '{"pa' } }] },
      { tool_calls: [{ function: { arguments: 'th":"a"}' } }] },
      { tool_calls: [{ id: 'x2', type: 'function', function: { name: 'list_files', arguments: '{}' } }] },
    ];
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const delta of frames)
        res.write(
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
        );
      res.end(
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\ndata: [DONE]\n\n`,
      );
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const port = (raw.address() as AddressInfo).port;
      const p = createProvider({ provider: 'openai-compatible', model: 'm', baseUrl: `http://127.0.0.1:${port}/v1`, toolProtocol: 'native' });
      const result = await collectOk(p.createMessage({ systemPrompt: '', messages: [{ role: 'user', content: 'go' }], tools: TOOLS }));
      assert.deepEqual(
        result.toolCalls.map((c) => [c.id, c.name, c.arguments]),
        [
          ['x1', 'read_file', '{"path":"a"}'],
          ['x2', 'list_files', '{}'],
        ],
      );
    } finally {
      raw.closeAllConnections();
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    }
  });
});
