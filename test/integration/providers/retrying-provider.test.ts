import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { withRetries } from '../../../src/core/providers/retrying-provider.js';
import type { RetryInfo, RetryOptions } from '../../../src/core/providers/retrying-provider.js';
import { ProviderAbortedError, ProviderError } from '../../../src/core/providers/types.js';
import type { ProviderId } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import type { ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { collect, collectOk } from './stream-helpers.js';

const request = { systemPrompt: 'You are Smith.', messages: [{ role: 'user' as const, content: 'Hello' }] };
const VENDORS: ReadonlyArray<Exclude<ProviderId, 'openai-compatible'>> = ['openai', 'anthropic', 'gemini'];

describe('withRetries around the real providers', () => {
  let server: ScriptedLlmServer;
  let sleeps: number[];
  let retries: RetryInfo[];

  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    sleeps = [];
    retries = [];
  });

  // Records the waits instead of taking them, so no test depends on the wall clock.
  function retrying(provider: ProviderId, options: RetryOptions = {}) {
    const baseUrl = provider === 'openai' ? server.openAiBaseUrl : provider === 'anthropic' ? server.anthropicBaseUrl : server.geminiBaseUrl;
    const inner = createProvider({ provider, model: 'scripted-model', apiKey: 'test-key', baseUrl });
    return withRetries(inner, {
      baseDelayMs: 100,
      random: () => 0.5,
      sleep: async (ms) => void sleeps.push(ms),
      onRetry: (info) => void retries.push(info),
      ...options,
    });
  }

  for (const vendor of VENDORS) {
    test(`${vendor}: 429 with a retry delay, then success; the server's delay is the one waited`, async () => {
      server.enqueue({ fault: 'status', status: 429, retryAfterSeconds: 7 }, { text: 'second time lucky' });
      const result = await collectOk(retrying(vendor).createMessage(request));
      assert.equal(result.text, 'second time lucky');
      assert.deepEqual(sleeps, [7000]);
      const [retry] = retries;
      assert.ok(retry && retries.length === 1, `one retry, got ${retries.length}`);
      assert.deepEqual({ attempt: retry.attempt, maxRetries: retry.maxRetries, delayMs: retry.delayMs }, { attempt: 1, maxRetries: 3, delayMs: 7000 });
      assert.equal(retry.error.status, 429);
      assert.equal(server.requests.length, 2);
    });

    test(`${vendor}: context-length errors are flagged and not retried`, async () => {
      server.enqueue({ fault: 'context-length' });
      const { error } = await collect(retrying(vendor).createMessage(request));
      assert.ok(error instanceof ProviderError, String(error));
      assert.equal(error.contextTooLong, true);
      assert.equal(error.retryable, false);
      assert.equal(error.status, 400);
      assert.deepEqual(sleeps, []);
      assert.equal(server.requests.length, 1);
    });
  }

  test('500 then 503 then success, with exponential backoff', async () => {
    server.enqueue({ fault: 'status', status: 500 }, { fault: 'status', status: 503 }, { text: 'recovered' });
    const result = await collectOk(retrying('openai').createMessage(request));
    assert.equal(result.text, 'recovered');
    // Equal jitter with random 0.5: three quarters of 100 ms, then of 200 ms.
    assert.deepEqual(sleeps, [75, 150]);
    assert.deepEqual(
      retries.map((r) => [r.attempt, r.error.status]),
      [
        [1, 500],
        [2, 503],
      ],
    );
  });

  test('retries exhausted: the last error surfaces after maxRetries waits', async () => {
    server.enqueue(...Array.from({ length: 3 }, () => ({ fault: 'status' as const, status: 529 })));
    const { error } = await collect(retrying('anthropic', { maxRetries: 2 }).createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.status, 529);
    assert.equal(server.requests.length, 3);
    assert.equal(sleeps.length, 2);
    assert.deepEqual(
      retries.map((r) => `${r.attempt}/${r.maxRetries}`),
      ['1/2', '2/2'],
    );
  });

  test('401 is not retried and its message names the key setting', async () => {
    server.enqueue({ fault: 'status', status: 401 }, { text: 'never sent' });
    const { error } = await collect(retrying('openai').createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.status, 401);
    assert.match(error.message, /OPENAI_API_KEY/);
    assert.deepEqual(sleeps, []);
    assert.equal(server.requests.length, 1);
    await collectOk(retrying('openai').createMessage(request)); // consumes 'never sent'
  });

  test('400 is not retried', async () => {
    server.enqueue({ fault: 'status', status: 400 });
    const { error } = await collect(retrying('gemini').createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, false);
    assert.equal(server.requests.length, 1);
  });

  test('a drop after some chunks is not retried: the partial text, then the error', async () => {
    server.enqueue({ fault: 'drop', text: 'abcdefghijklmnop', afterChunks: 2, chunkSize: 4 }, { text: 'should stay queued' });
    const { text, error } = await collect(retrying('anthropic').createMessage(request));
    assert.equal(text, 'abcdefgh');
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryable, true, 'retryable by the engine, which retries the whole turn');
    assert.equal(server.requests.length, 1);
    assert.deepEqual(sleeps, []);
    await collectOk(retrying('anthropic').createMessage(request));
  });

  test('a connection lost before any chunk is retried', async () => {
    server.enqueue({ fault: 'drop', text: 'unused', afterChunks: 0 }, { text: 'fresh connection' });
    const result = await collectOk(retrying('openai').createMessage(request));
    assert.equal(result.text, 'fresh connection');
    assert.equal(server.requests.length, 2);
  });

  test('a slow first byte still works', async () => {
    server.enqueue({ fault: 'slow-first-byte', delayMs: 300, then: { text: 'worth the wait' } });
    const result = await collectOk(retrying('gemini').createMessage(request));
    assert.equal(result.text, 'worth the wait');
    assert.deepEqual(sleeps, []);
  });

  test('a server asking to wait over 10 minutes is not waited for', async () => {
    server.enqueue({ fault: 'status', status: 429, retryAfterSeconds: 3600 });
    const { error } = await collect(retrying('openai').createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.retryAfterMs, 3_600_000);
    assert.match(error.message, /wait 3600s/);
    assert.deepEqual(sleeps, []);
  });

  test('abort during the backoff wait rejects promptly with ProviderAbortedError and sends nothing more', async () => {
    server.enqueue({ fault: 'status', status: 503 }, { text: 'not reached' });
    const controller = new AbortController();
    // The real sleep: a 60 s backoff that only the abort can end.
    const provider = retrying('openai', { baseDelayMs: 60_000, sleep: undefined, onRetry: () => setTimeout(() => controller.abort(), 20) });
    const started = Date.now();
    const { error } = await collect(provider.createMessage({ ...request, signal: controller.signal }));
    assert.ok(error instanceof ProviderAbortedError, String(error));
    assert.ok(Date.now() - started < 5000, 'did not wait out the backoff');
    assert.equal(server.requests.length, 1);
    await collectOk(retrying('openai').createMessage(request)); // consumes 'not reached'
  });
});
