import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { ProviderAbortedError, ProviderError } from '../../../src/core/providers/types.js';
import { abortMidStream, abortWhileHanging, collect, collectOk, useProviderFixture } from './stream-helpers.js';

const KEY = 'sk-ant-test-SECRET-987654321';
const request = { systemPrompt: 'You are Smith.', messages: [{ role: 'user' as const, content: 'Hello' }] };

describe('AnthropicProvider against the scripted server', () => {
  const fx = useProviderFixture((server) => ({ provider: 'anthropic', model: 'claude-test', apiKey: KEY, baseUrl: server.anthropicBaseUrl }));

  test('streams text in several chunks and assembles it', async () => {
    const text = 'Pack my box with five dozen liquor jugs.';
    fx.server.enqueue({ text });
    const result = await collectOk(fx.provider.createMessage(request));
    assert.equal(result.text, text);
    assert.ok(result.chunks.filter((c) => c.type === 'text').length > 3, 'text arrived in several chunks');
  });

  test('sends system as a top-level cached block, the messages, max_tokens 8192 and the key, in Anthropic shape', async () => {
    fx.server.enqueue({ text: 'ok' });
    await collectOk(fx.provider.createMessage(request));
    assert.equal(fx.server.requests.length, 1);
    const recorded = fx.server.requestAt(0);
    assert.equal(recorded.format, 'anthropic');
    assert.equal(recorded.path, '/v1/messages');
    assert.equal(recorded.body.model, 'claude-test');
    assert.deepEqual(recorded.body.system, [{ type: 'text', text: 'You are Smith.', cache_control: { type: 'ephemeral' } }]);
    assert.equal(recorded.body.max_tokens, 8192);
    assert.equal(recorded.body.stream, true);
    assert.equal('thinking' in recorded.body, false);
    assert.deepEqual(recorded.body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Hello', cache_control: { type: 'ephemeral' } }] }]);
    assert.ok(recorded.headers['anthropic-version'], 'the SDK sends anthropic-version');
    // @anthropic-ai/sdk v1 sends the key as a bearer token, no longer as x-api-key.
    assert.equal(recorded.headers.authorization, `Bearer ${KEY}`);
  });

  test('uses maxOutputTokens and leaves out an empty system prompt', async () => {
    const limited = createProvider({ provider: 'anthropic', model: 'claude-test', apiKey: KEY, baseUrl: fx.server.anthropicBaseUrl, maxOutputTokens: 1000 });
    fx.server.enqueue({ text: 'ok' });
    await collectOk(limited.createMessage({ ...request, systemPrompt: '' }));
    assert.equal(fx.server.requestAt(0).body.max_tokens, 1000);
    assert.equal('system' in fx.server.requestAt(0).body, false);
  });

  test('merges consecutive same-role messages so roles alternate, starting with the user', async () => {
    fx.server.enqueue({ text: 'ok' });
    await collectOk(
      fx.provider.createMessage({
        systemPrompt: 'sys',
        messages: [
          { role: 'assistant', content: 'resumed' },
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
          { role: 'assistant', content: 'c' },
          { role: 'assistant', content: '   ' },
          { role: 'assistant', content: 'd' },
          { role: 'user', content: 'e' },
        ],
      }),
    );
    const messages = fx.server.requestAt(0).body.messages as Array<{ role: string; content: string | Array<{ text: string }> }>;
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant', 'user'],
    );
    const texts = messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text).join('')));
    assert.deepEqual(texts.slice(1), ['resumed', 'a\n\nb', 'c\n\nd', 'e']);
  });

  test('yields thinking as reasoning chunks before the text', async () => {
    fx.server.enqueue({ text: 'The answer is 4.', reasoning: 'Two plus two is four.' });
    const result = await collectOk(fx.provider.createMessage(request));
    assert.equal(result.reasoning, 'Two plus two is four.');
    assert.equal(result.text, 'The answer is 4.');
    const firstText = result.chunks.findIndex((c) => c.type === 'text');
    const lastReasoning = result.chunks.map((c) => c.type).lastIndexOf('reasoning');
    assert.ok(lastReasoning < firstText);
  });

  test('one final usage chunk with input, output and cache tokens', async () => {
    fx.server.enqueue({ text: 'cached', usage: { input: 10, output: 42, cacheRead: 100, cacheWrite: 20 } });
    const result = await collectOk(fx.provider.createMessage(request));
    // inputTokens counts the whole prompt: Anthropic's input_tokens excludes cache reads and writes.
    assert.deepEqual(result.usages, [{ inputTokens: 130, outputTokens: 42, cacheReadTokens: 100, cacheWriteTokens: 20 }]);
    assert.equal(result.chunks.at(-1)?.type, 'usage');
  });

  test('401: not retryable, names ANTHROPIC_API_KEY, never shows the key', async () => {
    fx.server.enqueue((req) => ({
      fault: 'status',
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: `invalid key ${String(req.headers.authorization)}` } },
    }));
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.status, 401);
    assert.equal(error.retryable, false);
    assert.match(error.message, /ANTHROPIC_API_KEY/);
    assert.ok(!error.message.includes(KEY), error.message);
  });

  test('429, 500 and 529 (overloaded) are retryable, with no SDK retries', async () => {
    fx.server.enqueue({ fault: 'status', status: 429, retryAfterSeconds: 7 }, { fault: 'status', status: 500 }, { fault: 'status', status: 529 });
    for (const status of [429, 500, 529]) {
      const { error } = await collect(fx.provider.createMessage(request));
      assert.ok(error instanceof ProviderError, String(error));
      assert.equal(error.status, status);
      assert.equal(error.retryable, true);
      if (status === 429) assert.equal(error.retryAfterMs, 7000);
    }
    assert.equal(fx.server.requests.length, 3);
  });

  test("400 shows the server's message", async () => {
    fx.server.enqueue({
      fault: 'status',
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } },
    });
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, false);
    assert.match(error.message, /prompt is too long/);
  });

  test('dropped connection mid-stream: text before the drop is yielded, then a retryable error', async () => {
    fx.server.enqueue({ fault: 'drop', text: 'Hello, this will be cut short', afterChunks: 3, chunkSize: 4 });
    const { text, error, usages } = await collect(fx.provider.createMessage(request));
    assert.equal(text, 'Hello, this ');
    assert.deepEqual(usages, []);
    assert.ok(error instanceof ProviderError);
    assert.ok(!(error instanceof ProviderAbortedError));
    assert.equal(error.retryable, true);
  });

  test('abort while the server hangs rejects promptly with ProviderAbortedError', async () => {
    const { error, elapsedMs } = await abortWhileHanging(fx, request);
    assert.ok(error instanceof ProviderAbortedError, String(error));
    assert.ok(elapsedMs < 2000, 'aborted within 2s');
  });

  test('abort mid-stream ends with ProviderAbortedError', async () => {
    const { error } = await abortMidStream(fx, request);
    assert.ok(error instanceof ProviderAbortedError, String(error));
  });

  test("an empty script queue surfaces as a ProviderError with the server's JSON message", async () => {
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.status, 500);
    assert.match(error.message, /scripted server: no reply queued/);
  });
});

describe('AnthropicProvider against misbehaving streams', () => {
  // These need wire-level control the scripted server deliberately does not offer.
  let url: string;
  let respond: (res: ServerResponse) => void;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => respond(res));
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const sse = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  const messageStart = sse('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  });
  const textDelta = sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } });

  test('a stream that ends cleanly but without message_stop is a retryable error', async () => {
    respond = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(messageStart + textDelta);
    };
    const provider = createProvider({ provider: 'anthropic', model: 'm', apiKey: 'k', baseUrl: url });
    const { text, error } = await collect(provider.createMessage(request));
    assert.equal(text, 'partial');
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, true);
    assert.match(error.message, /ended before it was complete/);
  });

  test('an overloaded error event inside the stream is a retryable error with its message', async () => {
    respond = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(messageStart + sse('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    };
    const provider = createProvider({ provider: 'anthropic', model: 'm', apiKey: 'k', baseUrl: url });
    const { error } = await collect(provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, true);
    assert.match(error.message, /Overloaded/);
  });
});
