import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { ContextTooLongError, ProviderError } from '../../../src/core/providers/types.js';
import type { ApiProvider, ProviderId } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import type { ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { collect, collectOk } from './stream-helpers.js';

const request = { systemPrompt: 'You are Smith.', messages: [{ role: 'user' as const, content: 'Hello' }] };
const VENDORS: ReadonlyArray<Extract<ProviderId, 'openai' | 'anthropic' | 'gemini'>> = ['openai', 'anthropic', 'gemini'];
const LABELS = { openai: 'OpenAI', anthropic: 'Anthropic', gemini: 'Gemini' };

describe('scripted faults through each real SDK', () => {
  let server: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  function provider(vendor: (typeof VENDORS)[number]): ApiProvider {
    const baseUrl = { openai: server.openAiBaseUrl, anthropic: server.anthropicBaseUrl, gemini: server.geminiBaseUrl }[vendor];
    return createProvider({ provider: vendor, model: 'scripted-model', apiKey: 'key', baseUrl });
  }

  for (const vendor of VENDORS) {
    test(`${vendor}: malformed SSE after good chunks is a clear, non-retryable ProviderError after the partial text`, async () => {
      server.enqueue({ fault: 'malformed-sse', text: 'good start, then garbage', afterChunks: 2, chunkSize: 5 });
      const { text, error, usages } = await collect(provider(vendor).createMessage(request));
      assert.equal(text, 'good start');
      assert.deepEqual(usages, []);
      assert.ok(error instanceof ProviderError, String(error));
      assert.equal(error.retryable, false);
      assert.equal(error.contextTooLong, false);
      assert.match(error.message, new RegExp(`${LABELS[vendor]} sent a malformed response`));
    });

    test(`${vendor}: malformed SSE before any text is the same clear error`, async () => {
      server.enqueue({ fault: 'malformed-sse' });
      const { text, error } = await collect(provider(vendor).createMessage(request));
      assert.equal(text, '');
      assert.ok(error instanceof ProviderError, String(error));
      assert.match(error.message, /malformed response/);
    });

    test(`${vendor}: a slow first byte still streams the whole answer`, async () => {
      server.enqueue({ fault: 'slow-first-byte', delayMs: 400, then: { text: 'late but complete', usage: { input: 3, output: 4 } } });
      const result = await collectOk(provider(vendor).createMessage(request));
      assert.equal(result.text, 'late but complete');
      assert.equal(result.usages.length, 1);
    });

    test(`${vendor}: a too-long prompt is a ContextTooLongError quoting the vendor`, async () => {
      server.enqueue({ fault: 'context-length' });
      const { error } = await collect(provider(vendor).createMessage(request));
      assert.ok(error instanceof ContextTooLongError, String(error));
      assert.equal(error.contextTooLong, true);
      assert.equal(error.status, 400);
      assert.equal(error.retryable, false);
      assert.match(error.message, /too long for model "scripted-model"/);
      assert.match(error.message, /maximum context length|prompt is too long|exceeds the maximum number of tokens/);
    });
  }

  test('a slow first byte followed by a fault delivers the fault', async () => {
    server.enqueue({ fault: 'slow-first-byte', delayMs: 100, then: { fault: 'status', status: 503 } });
    const { error } = await collect(provider('openai').createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.status, 503);
  });

  test('an ordinary 400 is not flagged as too long', async () => {
    server.enqueue({ fault: 'status', status: 400 });
    const { error } = await collect(provider('anthropic').createMessage(request));
    assert.ok(error instanceof ProviderError);
    assert.equal(error.contextTooLong, false);
  });

  test("openai-compatible servers' own wording (vLLM, llama.cpp) is flagged too", async () => {
    const compatible = createProvider({ provider: 'openai-compatible', model: 'local', baseUrl: server.openAiBaseUrl });
    server.enqueue(
      {
        fault: 'status',
        status: 400,
        body: {
          object: 'error',
          message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens",
          type: 'BadRequestError',
          code: 400,
        },
      },
      {
        fault: 'status',
        status: 400,
        body: { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } },
      },
    );
    for (let i = 0; i < 2; i++) {
      const { error } = await collect(compatible.createMessage(request));
      assert.ok(error instanceof ProviderError, String(error));
      assert.equal(error.contextTooLong, true, error.message);
    }
  });
});
