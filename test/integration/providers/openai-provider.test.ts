import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { ProviderAbortedError, ProviderError } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { abortMidStream, abortWhileHanging, collect, collectOk, useProviderFixture } from './stream-helpers.js';

const KEY = 'sk-test-SECRET-0123456789';
const request = { systemPrompt: 'You are Smith.', messages: [{ role: 'user' as const, content: 'Hello' }] };

describe('OpenAiProvider against the scripted server', () => {
  const fx = useProviderFixture((server) => ({ provider: 'openai', model: 'gpt-test', apiKey: KEY, baseUrl: server.openAiBaseUrl }));

  test('streams text in several chunks and assembles it', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    fx.server.enqueue({ text });
    const result = await collectOk(fx.provider.createMessage(request));
    assert.equal(result.text, text);
    assert.ok(result.chunks.filter((c) => c.type === 'text').length > 3, 'text arrived in several chunks');
  });

  test('sends the system prompt first, the messages, streaming options and the key, in OpenAI shape', async () => {
    fx.server.enqueue({ text: 'ok' });
    await collectOk(fx.provider.createMessage(request));
    assert.equal(fx.server.requests.length, 1);
    const recorded = fx.server.requestAt(0);
    assert.equal(recorded.format, 'openai');
    assert.equal(recorded.path, '/v1/chat/completions');
    assert.equal(recorded.headers.authorization, `Bearer ${KEY}`);
    assert.equal(recorded.body.model, 'gpt-test');
    assert.equal(recorded.body.stream, true);
    assert.deepEqual(recorded.body.stream_options, { include_usage: true });
    assert.deepEqual(recorded.body.messages, [
      { role: 'system', content: 'You are Smith.' },
      { role: 'user', content: 'Hello' },
    ]);
  });

  test('merges consecutive same-role messages and starts with a user turn', async () => {
    fx.server.enqueue({ text: 'ok' });
    await collectOk(
      fx.provider.createMessage({
        systemPrompt: 'sys',
        messages: [
          { role: 'assistant', content: 'earlier answer' },
          { role: 'user', content: 'one' },
          { role: 'user', content: '' },
          { role: 'user', content: 'two' },
        ],
      }),
    );
    const roles = fx.server.requestAt(0).body.messages.map((m: { role: string }) => m.role);
    assert.deepEqual(roles, ['system', 'user', 'assistant', 'user']);
    assert.equal(fx.server.requestAt(0).body.messages[3].content, 'one\n\ntwo');
  });

  test('yields reasoning from reasoning_content and from reasoning', async () => {
    fx.server.enqueue({ text: 'answer', reasoning: 'thinking hard about it' });
    fx.server.enqueue({ text: 'answer', reasoning: 'ollama style thoughts', reasoningField: 'reasoning' });
    const first = await collectOk(fx.provider.createMessage(request));
    const second = await collectOk(fx.provider.createMessage(request));
    assert.equal(first.reasoning, 'thinking hard about it');
    assert.equal(second.reasoning, 'ollama style thoughts');
    assert.equal(second.text, 'answer');
    assert.equal(first.chunks.findIndex((c) => c.type === 'text') > first.chunks.findIndex((c) => c.type === 'reasoning'), true);
  });

  test('yields exactly one usage chunk, last, with cached tokens', async () => {
    fx.server.enqueue({ text: 'hi there', usage: { input: 120, output: 9, cacheRead: 100 } });
    const result = await collectOk(fx.provider.createMessage(request));
    assert.deepEqual(result.usages, [{ inputTokens: 120, outputTokens: 9, cacheReadTokens: 100 }]);
    assert.equal(result.chunks.at(-1)?.type, 'usage');
  });

  test('maxOutputTokens becomes max_completion_tokens for OpenAI', async () => {
    const limited = createProvider({ provider: 'openai', model: 'gpt-test', apiKey: KEY, baseUrl: fx.server.openAiBaseUrl, maxOutputTokens: 512 });
    fx.server.enqueue({ text: 'ok' });
    await collectOk(limited.createMessage(request));
    assert.equal(fx.server.requestAt(0).body.max_completion_tokens, 512);
    assert.equal(fx.server.requestAt(0).body.max_tokens, undefined);
  });

  test('401: not retryable, names the env var, never shows the key even when the server echoes it', async () => {
    fx.server.enqueue((req) => ({
      fault: 'status',
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}`, type: 'invalid_request_error', code: 'invalid_api_key' } },
    }));
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.status, 401);
    assert.equal(error.retryable, false);
    assert.match(error.message, /OPENAI_API_KEY/);
    assert.match(error.message, /rejected the API key/);
    assert.ok(!error.message.includes(KEY), error.message);
  });

  test("429: retryable with the server's retry-after, and the SDK did not retry by itself", async () => {
    fx.server.enqueue({ fault: 'status', status: 429, retryAfterSeconds: 3 });
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.status, 429);
    assert.equal(error.retryable, true);
    assert.equal(error.retryAfterMs, 3000);
    assert.match(error.message, /Rate limited/);
    assert.equal(fx.server.requests.length, 1);
  });

  test("500: retryable server error carrying the server's message", async () => {
    fx.server.enqueue({ fault: 'status', status: 503 });
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.status, 503);
    assert.equal(error.retryable, true);
    assert.match(error.message, /internal server error/);
    assert.equal(fx.server.requests.length, 1);
  });

  test('404: names the model and the base URL', async () => {
    fx.server.enqueue({ fault: 'status', status: 404 });
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, false);
    assert.ok(error.message.includes('"gpt-test"'), error.message);
    assert.ok(error.message.includes(fx.server.openAiBaseUrl), error.message);
  });

  test("400 with a non-OpenAI error body (FastAPI/vLLM style) still shows the server's message", async () => {
    fx.server.enqueue({ fault: 'status', status: 400, body: { object: 'error', message: "This model's maximum context length is 8192 tokens" } });
    fx.server.enqueue({ fault: 'status', status: 400, body: { detail: 'context too long' } });
    fx.server.enqueue({ fault: 'status', status: 400, body: { error: 'model "x" not found, try pulling it first' } });
    for (const expected of [/maximum context length is 8192/, /context too long/, /try pulling it first/]) {
      const { error } = await collect(fx.provider.createMessage(request));
      assert.ok(error instanceof ProviderError);
      assert.equal(error.status, 400);
      assert.equal(error.retryable, false);
      assert.match(error.message, expected);
    }
  });

  test('dropped connection mid-stream: text before the drop is yielded, then a retryable error', async () => {
    fx.server.enqueue({ fault: 'drop', text: 'abcdefghijklmnopqrstuvwxyz', afterChunks: 2, chunkSize: 5 });
    const { text, error } = await collect(fx.provider.createMessage(request));
    assert.equal(text, 'abcdefghij');
    assert.ok(error instanceof ProviderError);
    assert.ok(!(error instanceof ProviderAbortedError));
    assert.equal(error.retryable, true);
    assert.match(error.message, /connection .* lost/);
  });

  test('abort while the server hangs rejects promptly with ProviderAbortedError', async () => {
    const { error, elapsedMs } = await abortWhileHanging(fx, request);
    assert.ok(error instanceof ProviderAbortedError, String(error));
    assert.ok(elapsedMs < 2000, 'aborted within 2s');
  });

  test('abort mid-stream ends with ProviderAbortedError, not a silently short answer', async () => {
    const { error, textChunks } = await abortMidStream(fx, request);
    assert.ok(error instanceof ProviderAbortedError, String(error));
    assert.ok(textChunks < 40);
  });

  test('an already aborted signal rejects without a request', async () => {
    fx.server.enqueue({ text: 'never' });
    const { error } = await collect(fx.provider.createMessage({ ...request, signal: AbortSignal.abort() }));
    assert.ok(error instanceof ProviderAbortedError);
    assert.equal(fx.server.requests.length, 0);
    await collectOk(fx.provider.createMessage(request)); // consumes the 'never' reply
  });

  test("an empty script queue surfaces as a ProviderError with the server's JSON message", async () => {
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.status, 500);
    assert.match(error.message, /scripted server: no reply queued/);
  });

  test('connection refused: retryable, says it could not connect', async () => {
    const closed = await startScriptedLlmServer();
    await closed.close();
    const offline = createProvider({ provider: 'openai', model: 'gpt-test', apiKey: KEY, baseUrl: closed.openAiBaseUrl });
    const { error } = await collect(offline.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, true);
    assert.match(error.message, /Could not connect/);
    assert.ok(error.message.includes(closed.openAiBaseUrl));
  });
});

describe('openai-compatible provider', () => {
  let server: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(() => server.close());

  test('works without an API key (sends a placeholder) and uses max_tokens', async () => {
    const provider = createProvider({ provider: 'openai-compatible', model: 'llama3', baseUrl: server.openAiBaseUrl, maxOutputTokens: 256 });
    assert.equal(provider.id, 'openai-compatible');
    server.enqueue({ text: 'local model says hi' });
    const result = await collectOk(provider.createMessage(request));
    assert.equal(result.text, 'local model says hi');
    const recorded = server.requestAt(0);
    assert.equal(recorded.headers.authorization, 'Bearer not-needed');
    assert.equal(recorded.body.max_tokens, 256);
    assert.equal(recorded.headers['openai-organization'], undefined);
  });

  test('401 names SMITH_API_KEY', async () => {
    const provider = createProvider({ provider: 'openai-compatible', model: 'm', baseUrl: server.openAiBaseUrl, apiKey: 'or-key-12345' });
    server.enqueue({ fault: 'status', status: 401 });
    const { error } = await collect(provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.match(error.message, /SMITH_API_KEY/);
    assert.match(error.message, /OpenAI-compatible server/);
  });
});
