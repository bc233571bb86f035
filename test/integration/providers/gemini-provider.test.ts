import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { ProviderAbortedError, ProviderError } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { abortMidStream, abortWhileHanging, collect, collectOk, useProviderFixture } from './stream-helpers.js';

const KEY = 'AIza-test-SECRET-13579';
const request = { systemPrompt: 'You are Smith.', messages: [{ role: 'user' as const, content: 'Hello' }] };

describe('GeminiProvider against the scripted server', () => {
  const fx = useProviderFixture((server) => ({ provider: 'gemini', model: 'gemini-2.5-flash', apiKey: KEY, baseUrl: server.geminiBaseUrl }));

  test('streams text in several chunks and assembles it', async () => {
    const text = 'Sphinx of black quartz, judge my vow.';
    fx.server.enqueue({ text });
    const result = await collectOk(fx.provider.createMessage(request));
    assert.equal(fx.provider.id, 'gemini');
    assert.equal(result.text, text);
    assert.ok(result.chunks.filter((c) => c.type === 'text').length > 3, 'text arrived in several chunks');
  });

  test('requests streamGenerateContent with alt=sse, the key header, systemInstruction and user/model roles', async () => {
    fx.server.enqueue({ text: 'ok' });
    await collectOk(
      fx.provider.createMessage({
        systemPrompt: 'You are Smith.',
        messages: [
          { role: 'user', content: 'one' },
          { role: 'assistant', content: 'two' },
          { role: 'user', content: 'three' },
        ],
      }),
    );
    const recorded = fx.server.requestAt(0);
    assert.equal(recorded.format, 'gemini');
    assert.equal(recorded.path, '/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    assert.equal(recorded.headers['x-goog-api-key'], KEY);
    assert.deepEqual(recorded.body.systemInstruction, { parts: [{ text: 'You are Smith.' }], role: 'user' });
    assert.deepEqual(recorded.body.contents, [
      { role: 'user', parts: [{ text: 'one' }] },
      { role: 'model', parts: [{ text: 'two' }] },
      { role: 'user', parts: [{ text: 'three' }] },
    ]);
    assert.equal(recorded.body.generationConfig?.thinkingConfig, undefined, 'no thinking unless configured');
    assert.equal('abortSignal' in (recorded.body.generationConfig ?? {}), false);
  });

  test('leaves out an empty system prompt and sends maxOutputTokens', async () => {
    const limited = createProvider({ provider: 'gemini', model: 'gemini-2.5-pro', apiKey: KEY, baseUrl: fx.server.geminiBaseUrl, maxOutputTokens: 777 });
    fx.server.enqueue({ text: 'ok' });
    await collectOk(limited.createMessage({ ...request, systemPrompt: '' }));
    assert.equal('systemInstruction' in fx.server.requestAt(0).body, false);
    assert.equal(fx.server.requestAt(0).body.generationConfig.maxOutputTokens, 777);
  });

  test('thought parts become reasoning chunks before the text', async () => {
    fx.server.enqueue({ text: 'The answer is 4.', reasoning: 'Two plus two is four.' });
    const result = await collectOk(fx.provider.createMessage(request));
    assert.equal(result.reasoning, 'Two plus two is four.');
    assert.equal(result.text, 'The answer is 4.');
    const firstText = result.chunks.findIndex((c) => c.type === 'text');
    assert.ok(result.chunks.map((c) => c.type).lastIndexOf('reasoning') < firstText);
  });

  test('one final usage chunk: thoughts count as output, cached tokens as cache reads', async () => {
    fx.server.enqueue({ text: 'cached', usage: { input: 1200, output: 30, cacheRead: 1000, reasoningTokens: 70 } });
    const result = await collectOk(fx.provider.createMessage(request));
    assert.deepEqual(result.usages, [{ inputTokens: 1200, outputTokens: 100, cacheReadTokens: 1000 }]);
    assert.equal(result.chunks.at(-1)?.type, 'usage');
  });

  test('an empty answer still completes with usage', async () => {
    fx.server.enqueue({ text: '', usage: { input: 5, output: 0 } });
    const result = await collectOk(fx.provider.createMessage(request));
    assert.equal(result.text, '');
    assert.deepEqual(result.usages, [{ inputTokens: 5, outputTokens: 0 }]);
  });

  test('a bad key (400 API_KEY_INVALID, as Gemini answers) names GEMINI_API_KEY and never shows the key', async () => {
    fx.server.enqueue({
      fault: 'status',
      status: 400,
      body: {
        error: {
          code: 400,
          message: `API key not valid. Please pass a valid API key. (${KEY})`,
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
        },
      },
    });
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.retryable, false);
    assert.match(error.message, /GEMINI_API_KEY/);
    assert.match(error.message, /API key not valid/);
    assert.ok(!error.message.includes(KEY), error.message);
  });

  test('403 is not retryable and names GEMINI_API_KEY', async () => {
    fx.server.enqueue({ fault: 'status', status: 403 });
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, false);
    assert.match(error.message, /GEMINI_API_KEY/);
  });

  test('429 RESOURCE_EXHAUSTED is retryable with the RetryInfo delay; 500 and 503 are retryable', async () => {
    fx.server.enqueue({ fault: 'status', status: 429, retryAfterSeconds: 37 }, { fault: 'status', status: 500 }, { fault: 'status', status: 503 });
    for (const status of [429, 500, 503]) {
      const { error } = await collect(fx.provider.createMessage(request));
      assert.ok(error instanceof ProviderError, String(error));
      assert.equal(error.status, status);
      assert.equal(error.retryable, true);
      if (status === 429) {
        assert.equal(error.retryAfterMs, 37_000);
        assert.match(error.message, /Rate limited by Gemini/);
      }
    }
    assert.equal(fx.server.requests.length, 3, 'the SDK did not retry by itself');
  });

  test('404 names the model and the base URL', async () => {
    fx.server.enqueue({ fault: 'status', status: 404 });
    const { error } = await collect(fx.provider.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, false);
    assert.ok(error.message.includes('"gemini-2.5-flash"'), error.message);
    assert.ok(error.message.includes(fx.server.geminiBaseUrl), error.message);
  });

  test('dropped connection mid-stream: text before the drop is yielded, then a retryable error', async () => {
    fx.server.enqueue({ fault: 'drop', text: 'abcdefghijklmnopqrstuvwxyz', afterChunks: 2, chunkSize: 5 });
    const { text, error, usages } = await collect(fx.provider.createMessage(request));
    assert.equal(text, 'abcdefghij');
    assert.deepEqual(usages, []);
    assert.ok(error instanceof ProviderError);
    assert.ok(!(error instanceof ProviderAbortedError));
    assert.equal(error.retryable, true);
    assert.match(error.message, /lost|ended before/);
  });

  test('abort while the server hangs rejects promptly with ProviderAbortedError', async () => {
    const { error, elapsedMs } = await abortWhileHanging(fx, request);
    assert.ok(error instanceof ProviderAbortedError, String(error));
    assert.ok(elapsedMs < 2000, 'aborted within 2s');
  });

  test('abort mid-stream ends with ProviderAbortedError', async () => {
    const { error, textChunks } = await abortMidStream(fx, request);
    assert.ok(error instanceof ProviderAbortedError, String(error));
    assert.ok(textChunks < 40);
  });

  test('an already aborted signal rejects without a request', async () => {
    const { error } = await collect(fx.provider.createMessage({ ...request, signal: AbortSignal.abort() }));
    assert.ok(error instanceof ProviderAbortedError);
    assert.equal(fx.server.requests.length, 0);
  });

  test('connection refused: retryable, says it could not connect', async () => {
    const closed = await startScriptedLlmServer();
    await closed.close();
    const offline = createProvider({ provider: 'gemini', model: 'gemini-2.5-flash', apiKey: KEY, baseUrl: closed.geminiBaseUrl });
    const { error } = await collect(offline.createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, true);
    assert.match(error.message, /Could not connect to Gemini/);
  });
});

describe('GeminiProvider against misbehaving streams', () => {
  // Wire-level cases the scripted server deliberately does not offer.
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
  const data = (payload: object) => `data: ${JSON.stringify(payload)}\r\n\r\n`;
  const textChunk = (text: string, finishReason?: string) =>
    data({ candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0, ...(finishReason ? { finishReason } : {}) }] });
  const stream = (body: string) => (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  };
  const provider = () => createProvider({ provider: 'gemini', model: 'gemini-2.5-flash', apiKey: 'k', baseUrl: url });

  test('a stream that ends cleanly without a finish reason is a retryable truncation', async () => {
    respond = stream(textChunk('partial'));
    const { text, error } = await collect(provider().createMessage(request));
    assert.equal(text, 'partial');
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, true);
    assert.match(error.message, /ended before it was complete/);
  });

  test('a blocked prompt is a clear, non-retryable error', async () => {
    respond = stream(data({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } }));
    const { error } = await collect(provider().createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, false);
    assert.match(error.message, /refused the prompt \(block reason SAFETY\)/);
  });

  test('a response stopped for safety before any text is an error naming the reason', async () => {
    respond = stream(textChunk('', 'SAFETY'));
    const { error } = await collect(provider().createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.match(error.message, /finish reason SAFETY/);
  });

  test('an error object inside the stream becomes a ProviderError with its status', async () => {
    respond = stream(textChunk('so far') + data({ error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } }));
    const { error } = await collect(provider().createMessage(request));
    assert.ok(error instanceof ProviderError, String(error));
    assert.equal(error.status, 503);
    assert.equal(error.retryable, true);
    assert.match(error.message, /overloaded/);
  });

  test('a non-JSON error page is still reported with its status', async () => {
    respond = (res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad Gateway</html>');
    };
    const { error } = await collect(provider().createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.status, 502);
    assert.equal(error.retryable, true);
  });
});
