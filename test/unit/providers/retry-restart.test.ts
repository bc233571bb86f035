// withRetries is the engine's one retry loop: with `restartMidStream` a stream that broke after
// some chunks is made again from the start, announced in-band by a `restart` chunk so the
// consumer drops what it received; the restarts have their own count.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withRetries, type RetryInfo } from '../../../src/core/providers/retrying-provider.js';
import { ProviderError } from '../../../src/core/providers/types.js';
import type { ApiProvider, ApiStreamChunk } from '../../../src/core/providers/types.js';
import { runModelTurn } from '../../../src/core/task/model-turn.js';

const request = { systemPrompt: '', messages: [{ role: 'user' as const, content: 'hi' }] };
const dropped = () => new ProviderError('The connection was lost mid-response.', undefined, true);

/** Each call plays one script: chunks, then (optionally) an error. */
function scriptedProvider(scripts: Array<{ chunks: ApiStreamChunk[]; error?: Error }>): ApiProvider & { calls: number } {
  const provider = {
    id: 'openai' as const,
    modelId: 'scripted',
    calls: 0,
    async *createMessage() {
      const script = scripts[provider.calls++];
      if (!script) throw new Error(`called ${provider.calls} times, more than scripted`);
      yield* script.chunks;
      if (script.error) throw script.error;
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

describe('withRetries with restartMidStream', () => {
  test('a stream that broke mid-way is restarted after a restart chunk, and the wait is reported', async () => {
    const inner = scriptedProvider([
      { chunks: [{ type: 'text', text: 'half' }], error: dropped() },
      { chunks: [], error: new ProviderError('busy', 503, true) },
      { chunks: [{ type: 'text', text: 'whole' }] },
    ]);
    const retries: RetryInfo[] = [];
    const sleeps: number[] = [];
    const { chunks, error } = await drain(
      withRetries(inner, {
        restartMidStream: true,
        random: () => 0.5,
        baseDelayMs: 100,
        sleep: async (ms) => void sleeps.push(ms),
        onRetry: (info) => void retries.push(info),
      }),
    );
    assert.equal(error, undefined);
    assert.deepEqual(chunks, [
      { type: 'text', text: 'half' },
      { type: 'restart', reason: 'The connection was lost mid-response.' },
      { type: 'text', text: 'whole' },
    ]);
    // The restart is its first; the 503 of the new attempt is that attempt's first retry.
    assert.deepEqual(
      retries.map((r) => [r.attempt, r.error.message]),
      [
        [1, 'The connection was lost mid-response.'],
        [1, 'busy'],
      ],
    );
    assert.deepEqual(sleeps, [75, 75]);
    assert.equal(inner.calls, 3);
  });

  test('restarts are limited by maxRetries; the last break reaches the caller after its chunks', async () => {
    const inner = scriptedProvider([0, 1, 2].map((i) => ({ chunks: [{ type: 'text', text: `try ${i}` }], error: dropped() })));
    const { chunks, error } = await drain(withRetries(inner, { restartMidStream: true, maxRetries: 2, sleep: async () => undefined }));
    assert.ok(error instanceof ProviderError);
    assert.equal(chunks.filter((c) => c.type === 'restart').length, 2);
    assert.equal(inner.calls, 3);
  });

  test('an error that is not retryable is never restarted', async () => {
    const inner = scriptedProvider([{ chunks: [{ type: 'text', text: 'x' }], error: new ProviderError('bad request', 400, false) }]);
    const { chunks, error } = await drain(withRetries(inner, { restartMidStream: true, sleep: async () => undefined }));
    assert.ok(error instanceof ProviderError);
    assert.deepEqual(chunks, [{ type: 'text', text: 'x' }]);
  });

  test('the turn drops what it parsed before the restart and reports it as interrupted', async () => {
    const inner = scriptedProvider([
      {
        chunks: [
          { type: 'reasoning', text: 'first thoughts' },
          { type: 'text', text: '<read_file>\n<path>a.ts' },
        ],
        error: dropped(),
      },
      {
        chunks: [
          { type: 'text', text: '<list_files>\n<path>.</path>\n</list_files>' },
          { type: 'usage', usage: { inputTokens: 3, outputTokens: 2 } },
        ],
      },
    ]);
    const interrupted: Array<[string, string]> = [];
    const grammar = {
      tools: new Map([
        ['read_file', ['path']],
        ['list_files', ['path']],
      ]),
    };
    const turn = await runModelTurn(
      withRetries(inner, { restartMidStream: true, sleep: async () => undefined }),
      request,
      grammar,
      () => {},
      (text, reason) => void interrupted.push([text, reason]),
    );
    assert.deepEqual(interrupted, [['<read_file>\n<path>a.ts', 'The connection was lost mid-response.']]);
    assert.equal(turn.reasoning, '');
    assert.deepEqual(
      turn.tools.map((t) => [t.name, t.params]),
      [['list_files', { path: '.' }]],
    );
    assert.deepEqual(turn.usage, { inputTokens: 3, outputTokens: 2 });
  });
});
