// The OpenAI Responses API through the openai SDK against the scripted server's Responses wire
// format: which models use it, what is sent (store: false, instructions, function tools, the
// encrypted reasoning items back), what is read (text, summaries, calls, usage), and its failures.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { withRetries } from '../../../src/core/providers/retrying-provider.js';
import { OpenAiProvider } from '../../../src/core/providers/openai-provider.js';
import { OpenAiResponsesProvider } from '../../../src/core/providers/openai-responses-provider.js';
import { ContextTooLongError, ProviderError } from '../../../src/core/providers/types.js';
import type { ApiStreamChunk, ContentPart, ProviderMessage } from '../../../src/core/providers/types.js';
import { HELLO, READ_FILE_TOOLS, collect, collectOk, useProviderFixture } from './stream-helpers.js';

const KEY = 'sk-test-SECRET-0123456789';
type SignedChunk = Extract<ApiStreamChunk, { type: 'signed_reasoning' }>;
const signedParts = (chunks: readonly ApiStreamChunk[]) => chunks.filter((c): c is SignedChunk => c.type === 'signed_reasoning').map((c) => c.part);

describe('which OpenAI API a model is spoken to with', () => {
  const base = { apiKey: KEY, baseUrl: 'http://127.0.0.1:9/v1' };
  // Listed, a snapshot of one listed, and newer ones named like them.
  const responsesOnly = ['gpt-5.1-codex', 'gpt-5.1-codex-max', 'gpt-5.1-codex-mini', 'gpt-5-codex', 'gpt-5-pro', 'o3-pro', 'o1-pro', 'codex-mini-latest'];
  for (const model of [...responsesOnly, 'gpt-5.1-codex-2026-01-01', 'gpt-5.2-codex', 'gpt-6-codex-max', 'gpt-5.2-codex-mini', 'o4-pro']) {
    test(`${model}: the Responses API`, () => {
      assert.ok(createProvider({ provider: 'openai', model, ...base }) instanceof OpenAiResponsesProvider);
    });
  }
  for (const model of ['gpt-5.1', 'gpt-5.1-chat', 'gpt-4.1', 'o3', 'gpt-5.2', 'gpt-5.2-mini', 'gpt-test-unknown']) {
    test(`${model}: Chat Completions`, () => {
      assert.ok(createProvider({ provider: 'openai', model, ...base }) instanceof OpenAiProvider);
    });
  }
  test("the profile's openAiApi wins over the catalogue, both ways, and compatible servers default to Chat Completions", () => {
    assert.ok(createProvider({ provider: 'openai', model: 'gpt-5.1-codex', openAiApi: 'chat-completions', ...base }) instanceof OpenAiProvider);
    assert.ok(createProvider({ provider: 'openai', model: 'gpt-4.1', openAiApi: 'responses', ...base }) instanceof OpenAiResponsesProvider);
    assert.ok(createProvider({ provider: 'openai-compatible', model: 'gpt-5.1-codex', ...base }) instanceof OpenAiProvider);
    assert.ok(createProvider({ provider: 'openai-compatible', model: 'local', openAiApi: 'responses', ...base }) instanceof OpenAiResponsesProvider);
  });
});

describe('OpenAiResponsesProvider against the scripted server', () => {
  const fx = useProviderFixture((server) => ({ provider: 'openai', model: 'gpt-5.1-codex', apiKey: KEY, baseUrl: server.openAiBaseUrl }));

  test('streams text deltas; sends instructions, input items and store: false to /v1/responses', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    fx.server.enqueue({ text, usage: { input: 120, output: 30, cacheRead: 100 } });
    const result = await collectOk(fx.provider.createMessage(HELLO));
    assert.equal(result.text, text);
    assert.ok(result.chunks.filter((c) => c.type === 'text').length > 3, 'text arrived in several chunks');
    assert.deepEqual(result.usages, [{ inputTokens: 120, outputTokens: 30, cacheReadTokens: 100 }]);
    const recorded = fx.server.requestAt(0);
    assert.equal(recorded.path, '/v1/responses');
    assert.equal(recorded.headers.authorization, `Bearer ${KEY}`);
    assert.equal(recorded.body.store, false);
    assert.equal(recorded.body.stream, true);
    assert.equal(recorded.body.instructions, 'You are Smith.');
    assert.deepEqual(recorded.body.input, [{ role: 'user', content: 'Hello' }]);
    assert.equal(recorded.body.reasoning, undefined, 'no effort configured: the vendor default');
    assert.deepEqual(recorded.body.include, ['reasoning.encrypted_content'], 'a reasoning model reasons anyway: its reasoning is carried');
    assert.equal(recorded.body.tools, undefined);
  });

  test('native function calls: function tools offered, calls read whole; the next turn sends function_call and function_call_output', async () => {
    fx.server.enqueue({
      text: 'Reading.',
      toolCalls: [
        { name: 'read_file', arguments: { path: 'a.ts' }, id: 'call_A' },
        { name: 'read_file', arguments: { path: 'b.ts' } },
      ],
    });
    const first = await collectOk(fx.provider.createMessage({ ...HELLO, tools: READ_FILE_TOOLS }));
    assert.equal(first.text, 'Reading.');
    const madeUpId = first.toolCalls[1]?.id ?? '';
    assert.match(madeUpId, /^call_scripted_\d+_1$/, "the call's own call_id, not one Smith made up");
    assert.deepEqual(
      first.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      [
        ['call_A', 'read_file', { path: 'a.ts' }],
        [madeUpId, 'read_file', { path: 'b.ts' }],
      ],
    );
    assert.deepEqual(fx.server.requestAt(0).body.tools, [
      { type: 'function', name: 'read_file', description: 'Reads a file.', parameters: READ_FILE_TOOLS[0]!.parameters, strict: false },
    ]);

    fx.server.enqueue({ text: 'Both read.' });
    const history: ProviderMessage[] = [
      { role: 'user', content: 'Hello' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading.' },
          ...first.toolCalls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: JSON.parse(c.arguments) })),
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'call_A', name: 'read_file', content: '1 | a' },
          { type: 'tool_result', toolUseId: madeUpId, name: 'read_file', content: 'no such file', isError: true },
          { type: 'text', text: 'ENV' },
        ],
      },
    ];
    const second = await collectOk(fx.provider.createMessage({ systemPrompt: 'sys', messages: history, tools: READ_FILE_TOOLS }));
    assert.equal(second.text, 'Both read.');
    assert.deepEqual(fx.server.requestAt(1).body.input, [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Reading.' },
      { type: 'function_call', call_id: 'call_A', name: 'read_file', arguments: '{"path":"a.ts"}' },
      { type: 'function_call', call_id: madeUpId, name: 'read_file', arguments: '{"path":"b.ts"}' },
      { type: 'function_call_output', call_id: 'call_A', output: '1 | a' },
      { type: 'function_call_output', call_id: madeUpId, output: 'Error: no such file' },
      { role: 'user', content: [{ type: 'input_text', text: 'ENV' }] },
    ]);
  });

  test('a result without its call, or a call without its result, is refused as the real API refuses it', async () => {
    const orphan: ProviderMessage[] = [{ role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_X', name: 'read_file', content: 'x' }] }];
    const result = await collect(fx.provider.createMessage({ systemPrompt: 'sys', messages: orphan, tools: READ_FILE_TOOLS }));
    assert.ok(result.error instanceof ProviderError);
    assert.match(result.error.message, /No tool call found for function call output with call_id call_X/);
    assert.equal(result.error.retryable, false);
  });
});

describe('OpenAiResponsesProvider reasoning', () => {
  const fx = useProviderFixture((server) => ({
    provider: 'openai',
    model: 'gpt-5.1-codex',
    apiKey: KEY,
    baseUrl: server.openAiBaseUrl,
    reasoning: { effort: 'high' },
  }));

  test('asks for the effort, summaries and encrypted content; shows the summary as reasoning; yields the item to send back', async () => {
    fx.server.enqueue({
      reasoning: 'I should read a.ts first.',
      toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }],
      usage: { input: 50, output: 40, reasoningTokens: 25 },
    });
    const result = await collectOk(fx.provider.createMessage({ ...HELLO, tools: READ_FILE_TOOLS }));
    const { body } = fx.server.requestAt(0);
    assert.deepEqual(body.reasoning, { effort: 'high', summary: 'auto' });
    assert.deepEqual(body.include, ['reasoning.encrypted_content']);
    assert.equal(result.reasoning, 'I should read a.ts first.');
    assert.deepEqual(signedParts(result.chunks), [
      {
        type: 'reasoning_item',
        id: 'rs_scripted_1',
        encryptedContent: 'scripted-encrypted-1',
        summary: ['I should read a.ts first.'],
        issuer: 'openai:gpt-5.1-codex',
      },
    ]);
    // The reasoning item came before the call, and is yielded before it.
    const order = result.chunks.filter((c) => c.type === 'signed_reasoning' || c.type === 'tool_call').map((c) => c.type);
    assert.deepEqual(order, ['signed_reasoning', 'tool_call']);
    assert.deepEqual(result.usages, [{ inputTokens: 50, outputTokens: 40, reasoningTokens: 25 }]);
  });

  test('the reasoning item goes back before its call, unchanged; an altered one is refused by the server', async () => {
    fx.server.enqueue({ reasoning: 'Plan: read.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' }, id: 'call_1' }] });
    const first = await collectOk(fx.provider.createMessage({ ...HELLO, tools: READ_FILE_TOOLS }));
    const [item] = signedParts(first.chunks);
    assert.ok(item?.type === 'reasoning_item');
    assert.match(item.encryptedContent, /^scripted-encrypted-\d+$/);
    const history = (reasoning: ContentPart): ProviderMessage[] => [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: [reasoning, { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_1', name: 'read_file', content: '1 | a' }] },
    ];
    fx.server.enqueue({ text: 'Done.' });
    await collectOk(fx.provider.createMessage({ systemPrompt: 'sys', messages: history(item), tools: READ_FILE_TOOLS }));
    assert.deepEqual(fx.server.requestAt(1).body.input.slice(1, 3), [
      { type: 'reasoning', id: item.id, encrypted_content: item.encryptedContent, summary: [{ type: 'summary_text', text: 'Plan: read.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' },
    ]);

    const altered = await collect(
      fx.provider.createMessage({ systemPrompt: 'sys', messages: history({ ...item, encryptedContent: 'forged' }), tools: READ_FILE_TOOLS }),
    );
    assert.ok(altered.error instanceof ProviderError);
    assert.match(altered.error.message, /could not be verified/);
  });

  test("another model's or provider's reasoning items are left out: only their issuer could read them", async () => {
    const item = (issuer?: string) => ({
      type: 'reasoning_item' as const,
      id: 'rs_other',
      encryptedContent: 'never-issued-here',
      summary: ['x'],
      ...(issuer ? { issuer } : {}),
    });
    for (const issuer of ['openai:gpt-5-codex', 'azure-openai:gpt-5.1-codex']) {
      fx.server.requests.length = 0;
      fx.server.enqueue({ text: 'ok' });
      await collectOk(
        fx.provider.createMessage({
          systemPrompt: 'sys',
          messages: [
            { role: 'user', content: 'Hello' },
            { role: 'assistant', content: [item(issuer), { type: 'tool_use', id: 'call_9', name: 'read_file', input: { path: 'a' } }] },
            { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_9', name: 'read_file', content: 'x' }] },
          ],
          tools: READ_FILE_TOOLS,
        }),
      );
      assert.deepEqual(
        fx.server.requestAt(0).body.input.map((i: any) => i.type ?? i.role),
        ['user', 'function_call', 'function_call_output'],
        issuer,
      );
    }
  });

  test('a reasoning item with nothing after it (a response cut short) is left out rather than refused; Anthropic thinking is dropped', async () => {
    fx.server.enqueue({ text: 'ok' });
    await collectOk(
      fx.provider.createMessage({
        systemPrompt: 'sys',
        messages: [
          { role: 'user', content: 'Hello' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', text: 'claude thought', signature: 'anthropic-sig' },
              { type: 'text', text: 'Partial.' },
              { type: 'reasoning_item', id: 'rs_x', encryptedContent: 'never-issued', summary: [] },
            ],
          },
          { role: 'user', content: 'go on' },
        ],
      }),
    );
    assert.deepEqual(fx.server.requestAt(0).body.input, [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Partial.' },
      { role: 'user', content: 'go on' },
    ]);
  });
});

describe('OpenAiResponsesProvider failures take the common retry path', () => {
  const fx = useProviderFixture((server) => ({ provider: 'openai', model: 'gpt-5.1-codex', apiKey: KEY, baseUrl: server.openAiBaseUrl }));
  const failure = async () => {
    const result = await collect(fx.provider.createMessage(HELLO));
    assert.ok(result.error instanceof ProviderError, String(result.error));
    return { error: result.error, text: result.text };
  };

  test("429: retryable with the server's retry-after", async () => {
    fx.server.enqueue({ fault: 'status', status: 429, retryAfterSeconds: 3 });
    const { error } = await failure();
    assert.equal(error.status, 429);
    assert.equal(error.retryable, true);
    assert.equal(error.retryAfterMs, 3000);
  });

  test('500: retryable', async () => {
    fx.server.enqueue({ fault: 'status', status: 500 });
    const { error } = await failure();
    assert.equal(error.retryable, true);
  });

  test('a dropped stream: the text before the drop arrived, then a retryable error', async () => {
    fx.server.enqueue({ fault: 'drop', text: 'Partial answer that goes on', afterChunks: 2, chunkSize: 5 });
    const { error, text } = await failure();
    assert.equal(text, 'Parti' + 'al an');
    assert.equal(error.retryable, true);
  });

  test('response.failed with a server error: retryable, with its message', async () => {
    fx.server.enqueue({
      fault: 'failed-event',
      kind: 'response.failed',
      code: 'server_error',
      message: 'The model crashed.',
      text: 'Hi there',
      afterChunks: 1,
    });
    const { error, text } = await failure();
    assert.equal(text, 'Hi ther');
    assert.match(error.message, /The model crashed\./);
    assert.equal(error.retryable, true);
  });

  test('an error event with an invalid-request code: not retryable', async () => {
    fx.server.enqueue({ fault: 'failed-event', kind: 'error', code: 'invalid_prompt', message: 'Your prompt was flagged.' });
    const { error } = await failure();
    assert.match(error.message, /Your prompt was flagged\./);
    assert.equal(error.retryable, false);
  });

  test('an error event saying the context is too long: ContextTooLongError', async () => {
    fx.server.enqueue({
      fault: 'failed-event',
      kind: 'error',
      code: 'context_length_exceeded',
      message: 'Your input exceeds the context window of this model.',
    });
    const { error } = await failure();
    assert.ok(error instanceof ContextTooLongError);
  });

  test('the context-length 400: ContextTooLongError', async () => {
    fx.server.enqueue({ fault: 'context-length' });
    const { error } = await failure();
    assert.ok(error instanceof ContextTooLongError);
  });

  test('broken JSON in the stream: an error saying so, not retryable', async () => {
    fx.server.enqueue({ fault: 'malformed-sse', text: 'abc', afterChunks: 1 });
    const { error } = await failure();
    assert.match(error.message, /malformed response/);
    assert.equal(error.retryable, false, 'the server speaks the API wrong');
  });
});

describe('the Responses API through withRetries', () => {
  const fx = useProviderFixture((server) => ({ provider: 'openai', model: 'gpt-5.1-codex', apiKey: KEY, baseUrl: server.openAiBaseUrl }));

  test('a 503, then a response.failed mid-stream, then a dropped stream are retried until the answer comes; the broken stream is announced', async () => {
    fx.server.enqueue(
      { fault: 'status', status: 503 },
      { fault: 'failed-event', kind: 'response.failed', code: 'server_error', message: 'Try again.', text: 'Half', afterChunks: 1 },
      { fault: 'drop', text: 'Broken answer', afterChunks: 1, chunkSize: 4 },
      { text: 'Whole answer.' },
    );
    const sleeps: number[] = [];
    const retrying = withRetries(fx.provider, { baseDelayMs: 10, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms), restartMidStream: true });
    const result = await collectOk(retrying.createMessage(HELLO));
    assert.equal(sleeps.length, 3);
    assert.equal(fx.server.requests.length, 4);
    assert.equal(result.chunks.filter((c) => c.type === 'restart').length, 2, 'each stream that broke after output is announced');
    const afterLastRestart = result.chunks.slice(result.chunks.findLastIndex((c) => c.type === 'restart') + 1);
    assert.equal(afterLastRestart.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join(''), 'Whole answer.');
  });
});

describe('Azure OpenAI on the Responses API', () => {
  const fx = useProviderFixture((server) => ({
    provider: 'azure-openai',
    model: 'my-codex-deployment',
    apiKey: KEY,
    baseUrl: `${server.url}/openai/deployments/my-codex-deployment/chat/completions?api-version=2024-10-21`,
    openAiApi: 'responses',
  }));

  test("posts to the resource's /openai/v1/responses with the api-key header, the deployment as model, no api-version", async () => {
    fx.server.enqueue({ text: 'Hello from Azure.' });
    const result = await collectOk(fx.provider.createMessage(HELLO));
    assert.equal(result.text, 'Hello from Azure.');
    const recorded = fx.server.requestAt(0);
    assert.equal(recorded.path, '/openai/v1/responses');
    assert.equal(recorded.headers['api-key'], KEY);
    assert.deepEqual(recorded.query, {});
    assert.equal(recorded.body.model, 'my-codex-deployment');
    assert.equal(recorded.body.store, false);
  });
});

describe('a compatible server on the Responses API', () => {
  const fx = useProviderFixture((server) => ({ provider: 'openai-compatible', model: 'local-model', baseUrl: server.openAiBaseUrl, openAiApi: 'responses' }));

  test('gets no reasoning options it was not asked for, and its answer streams as from OpenAI', async () => {
    fx.server.enqueue({ text: 'Local answer.' });
    const result = await collectOk(fx.provider.createMessage(HELLO));
    assert.equal(result.text, 'Local answer.');
    const { body, path } = fx.server.requestAt(0);
    assert.equal(path, '/v1/responses');
    assert.equal(body.reasoning, undefined);
    assert.equal(body.include, undefined);
    assert.equal(body.store, false);
  });
});
