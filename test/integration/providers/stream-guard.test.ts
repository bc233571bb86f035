import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { withRetries } from '../../../src/core/providers/retrying-provider.js';
import type { RetryInfo } from '../../../src/core/providers/retrying-provider.js';
import { ProviderAbortedError, ProviderError } from '../../../src/core/providers/types.js';
import type { ApiProvider, ProviderId } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import type { ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { collect, collectOk } from './stream-helpers.js';

const request = { systemPrompt: 'You are Smith.', messages: [{ role: 'user' as const, content: 'Hello' }] };
type Vendor = Extract<ProviderId, 'openai' | 'openai-compatible' | 'anthropic' | 'gemini'>;
const VENDORS: readonly Vendor[] = ['openai', 'openai-compatible', 'anthropic', 'gemini'];
const LABELS: Record<Vendor, string> = { openai: 'OpenAI', 'openai-compatible': 'the OpenAI-compatible server', anthropic: 'Anthropic', gemini: 'Gemini' };
// Short, so a stalled attempt ends soon, yet long enough that a busy machine answering late is not
// taken for a stall; the tests wait for the outcome, not for a time. Tests that are not about
// stalls keep the default, so a busy machine cannot turn them into timeouts.
const IDLE_MS = 2_000;
const DEFAULT_IDLE = undefined;

// Each vendor has its own server, so the vendors run side by side while each one's tests, which share
// a reply queue, run in turn.
describe('idle timeout and non-stream answers through each real SDK', { concurrency: true }, () => {
  for (const vendor of VENDORS) describe(vendor, { concurrency: 1 }, () => vendorTests(vendor));
});

function vendorTests(vendor: Vendor): void {
  let server: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  function provider(vendor: ProviderId, idleTimeoutMs: number | undefined = IDLE_MS): ApiProvider {
    const baseUrl = vendor === 'anthropic' ? server.anthropicBaseUrl : vendor === 'gemini' ? server.geminiBaseUrl : server.openAiBaseUrl;
    return createProvider({
      provider: vendor,
      model: 'scripted-model',
      apiKey: 'test-key',
      baseUrl,
      ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    });
  }

  function assertIdleError(error: unknown, vendor: Vendor, where: RegExp): asserts error is ProviderError {
    assert.ok(error instanceof ProviderError, String(error));
    assert.ok(!(error instanceof ProviderAbortedError), 'an idle timeout is not a user abort');
    assert.equal(error.retryable, true);
    assert.ok(error.message.startsWith(`No data from ${LABELS[vendor]} for 2 s`), error.message);
    assert.match(error.message, where);
  }

  test(`${vendor}: no response headers within the idle time is a retryable idle-timeout error`, async () => {
    server.enqueue({ fault: 'hang' });
    const { error } = await collect(provider(vendor).createMessage(request));
    assertIdleError(error, vendor, /before the response started/);
  });

  test(`${vendor}: headers, then silence, is a retryable idle-timeout error`, async () => {
    server.enqueue({ fault: 'stall' });
    const { error } = await collect(provider(vendor).createMessage(request));
    assertIdleError(error, vendor, /after the response started/);
  });

  test(`${vendor}: a stream that stalls mid-response ends after the text that arrived`, async () => {
    server.enqueue({ fault: 'stall', text: 'partial answer', afterChunks: 2, chunkSize: 4 });
    const { text, error } = await collect(provider(vendor).createMessage(request));
    assert.equal(text, 'partial ');
    assertIdleError(error, vendor, /after the response started/);
  });

  test(`${vendor}: stalled attempts are retried with backoff until one succeeds`, async () => {
    server.enqueue({ fault: 'hang' }, { fault: 'stall' }, { text: 'third time lucky' });
    const retries: RetryInfo[] = [];
    const sleeps: number[] = [];
    const retrying = withRetries(provider(vendor), {
      baseDelayMs: 100,
      random: () => 0.5,
      sleep: async (ms) => void sleeps.push(ms),
      onRetry: (info) => void retries.push(info),
    });
    const result = await collectOk(retrying.createMessage(request));
    assert.equal(result.text, 'third time lucky');
    assert.equal(server.requests.length, 3);
    assert.deepEqual(
      retries.map((r) => r.attempt),
      [1, 2],
    );
    assert.deepEqual(sleeps, [75, 150]);
    for (const retry of retries) assert.match(retry.error.message, /idle timeout/);
  });

  test(`${vendor}: a steady stream slower in total than the idle time is not cut`, async () => {
    // 40 chunks 100 ms apart: about 4 s in all, against an idle time of 3 s.
    server.enqueue({ text: 'x'.repeat(80), chunkSize: 2, chunkDelayMs: 100 });
    const result = await collectOk(provider(vendor, 3_000).createMessage(request));
    assert.equal(result.text, 'x'.repeat(80));
  });

  test(`${vendor}: keep-alive comments count as data, so a long wait for the first token is not cut`, async () => {
    // Twelve comments 350 ms apart: about 4.2 s before the answer, against an idle time of 3 s.
    server.enqueue({ text: 'thought long', keepAlive: { count: 12, everyMs: 350 } });
    const result = await collectOk(provider(vendor, 3_000).createMessage(request));
    assert.equal(result.text, 'thought long');
  });

  test(`${vendor}: time spent by the consumer on a chunk is not the server's silence`, async () => {
    server.enqueue({ text: 'first, then the rest', chunkSize: 6 });
    const chunks: string[] = [];
    for await (const chunk of provider(vendor).createMessage(request)) {
      if (chunk.type !== 'text') continue;
      // Busy with the first chunk for well over the idle time while the rest waits in the buffers.
      if (chunks.push(chunk.text) === 1) await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 1_500));
    }
    assert.equal(chunks.join(''), 'first, then the rest');
  });

  test(`${vendor}: cancelling a stalled request is an abort, not an idle timeout`, async () => {
    server.enqueue({ fault: 'stall' });
    const controller = new AbortController();
    const pending = collect(provider(vendor, DEFAULT_IDLE).createMessage({ ...request, signal: controller.signal }));
    await until(() => server.requests.length === 1);
    controller.abort();
    const { error } = await pending;
    assert.ok(error instanceof ProviderAbortedError, String(error));
  });

  test(`${vendor}: an HTML page answered with 200 is a provider error naming the URL and content type`, async () => {
    server.enqueue({ fault: 'not-a-stream' });
    const { error, text } = await collect(withRetries(provider(vendor, DEFAULT_IDLE), { sleep: async () => undefined }).createMessage(request));
    assert.equal(text, '');
    assert.ok(error instanceof ProviderError, String(error));
    assert.equal(error.retryable, false);
    assert.equal(error.status, 200);
    const path = server.requestAt(0).path;
    assert.ok(error.message.includes(`${server.url}${path}`), error.message);
    assert.match(error.message, /content type "text\/html; charset=utf-8"/);
    assert.match(error.message, /not the event stream/);
    assert.match(error.message, /Sign in to the corporate proxy/);
    assert.doesNotMatch(error.message, /test-key/);
    assert.equal(server.requests.length, 1, 'a wrong endpoint is not retried');
  });

  test(`${vendor}: a JSON document answered with 200 is the same clear error`, async () => {
    server.enqueue({ fault: 'not-a-stream', contentType: 'application/json', body: '{"status":"ok","service":"billing"}' });
    const { error } = await collect(provider(vendor, DEFAULT_IDLE).createMessage(request));
    assert.ok(error instanceof ProviderError, String(error));
    assert.match(error.message, /content type "application\/json"/);
    assert.match(error.message, /"service":"billing"/);
  });

  test(`${vendor}: an empty 200 without a content type names both`, async () => {
    server.enqueue({ fault: 'not-a-stream', contentType: '', body: '' });
    const { error } = await collect(provider(vendor, DEFAULT_IDLE).createMessage(request));
    assert.ok(error instanceof ProviderError, String(error));
    assert.match(error.message, /no content type|content type ""/);
    assert.match(error.message, /body was empty/);
  });

  test(`${vendor}: an event stream labelled text/plain is still read`, async () => {
    server.enqueue({ text: 'mislabelled but fine', contentType: 'text/plain' });
    const result = await collectOk(provider(vendor, DEFAULT_IDLE).createMessage(request));
    assert.equal(result.text, 'mislabelled but fine');
  });
}

/** Resolves once `condition` holds, checking every few milliseconds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
