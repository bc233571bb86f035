import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { abortableSleep, backoffDelayMs, withRetries } from '../../../src/core/providers/retrying-provider.js';
import { ProviderAbortedError, ProviderError } from '../../../src/core/providers/types.js';
import type { ApiProvider, ApiStreamChunk } from '../../../src/core/providers/types.js';

const request = { systemPrompt: '', messages: [{ role: 'user' as const, content: 'hi' }] };

// A provider of our own interface that fails on cue: the wrapper's logic without any HTTP.
function flakyProvider(outcomes: Array<Error | ApiStreamChunk[]>): ApiProvider & { calls: number } {
  const provider = {
    id: 'openai' as const,
    modelId: 'flaky',
    calls: 0,
    async *createMessage() {
      const outcome = outcomes[provider.calls++];
      if (outcome === undefined) throw new Error(`flakyProvider was called ${provider.calls} times, more than scripted`);
      if (outcome instanceof Error) throw outcome;
      yield* outcome;
    },
  };
  return provider;
}

async function drain(provider: ApiProvider): Promise<{ chunks: ApiStreamChunk[]; error?: unknown }> {
  const chunks: ApiStreamChunk[] = [];
  try {
    for await (const chunk of provider.createMessage(request)) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

describe('backoff', () => {
  test('doubles per attempt, capped, with half the delay jittered', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => backoffDelayMs(n, 1000, 30_000, () => 0)),
      [500, 1000, 2000, 4000],
    );
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => backoffDelayMs(n, 1000, 30_000, () => 0.999999)),
      [1000, 2000, 4000, 8000],
    );
    assert.equal(
      backoffDelayMs(10, 1000, 30_000, () => 0.999999),
      30_000,
    );
  });

  test('abortableSleep resolves after the delay and rejects at once when aborted', async () => {
    await abortableSleep(5);
    await assert.rejects(abortableSleep(10, AbortSignal.abort()), ProviderAbortedError);
    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    setTimeout(() => controller.abort(), 10);
    await assert.rejects(sleeping, ProviderAbortedError);
  });
});

describe('withRetries logic', () => {
  const noSleep = { sleep: async () => {}, random: () => 0 };

  test('keeps id and modelId, and passes chunks through', async () => {
    const inner = flakyProvider([
      [
        { type: 'text', text: 'a' },
        { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } },
      ],
    ]);
    const wrapped = withRetries(inner, noSleep);
    assert.deepEqual([wrapped.id, wrapped.modelId], ['openai', 'flaky']);
    const { chunks, error } = await drain(wrapped);
    assert.equal(error, undefined);
    assert.equal(chunks.length, 2);
  });

  test('errors that are not ProviderErrors, or not retryable, pass straight through', async () => {
    const bug = new TypeError('a bug');
    assert.equal((await drain(withRetries(flakyProvider([bug]), noSleep))).error, bug);
    const fatal = new ProviderError('bad request', 400, false);
    const inner = flakyProvider([fatal, []]);
    assert.equal((await drain(withRetries(inner, noSleep))).error, fatal);
    assert.equal(inner.calls, 1);
  });

  test('maxRetries 0 never retries', async () => {
    const inner = flakyProvider([new ProviderError('busy', 503, true), []]);
    const { error } = await drain(withRetries(inner, { ...noSleep, maxRetries: 0 }));
    assert.ok(error instanceof ProviderError);
    assert.equal(inner.calls, 1);
  });

  test('a sleep that ignores the signal still stops the retry after an abort', async () => {
    const controller = new AbortController();
    const inner = flakyProvider([new ProviderError('busy', 503, true), [{ type: 'text', text: 'late' }]]);
    const wrapped = withRetries(inner, { sleep: async () => controller.abort() });
    let error: unknown;
    try {
      for await (const _chunk of wrapped.createMessage({ ...request, signal: controller.signal })) assert.fail('no chunk expected');
    } catch (err) {
      error = err;
    }
    assert.ok(error instanceof ProviderAbortedError);
    assert.equal(inner.calls, 1);
  });
});
