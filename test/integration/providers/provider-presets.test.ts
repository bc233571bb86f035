import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { azureEndpoint, createOpenAiClient, DEFAULT_AZURE_API_VERSION } from '../../../src/core/providers/openai-client.js';
import { ProviderError } from '../../../src/core/providers/types.js';
import type { ProviderConfig, ProviderId } from '../../../src/core/providers/types.js';
import { PROVIDERS } from '../../../src/shared/providers.js';
import { startScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import type { ScriptedLlmServer, ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { collect, collectOk, HELLO, READ_FILE_TOOLS } from './stream-helpers.js';

// Every preset spoken to through the openai package: the OpenAI-compatible services, the local servers, Azure.
const OPENAI_WIRE = PROVIDERS.filter((p) => p.api === 'openai-compatible' || p.api === 'azure-openai').map((p) => p.id);

describe('provider presets over the OpenAI SDK', () => {
  let server: ScriptedLlmServer;
  before(async () => (server = await startScriptedLlmServer()));
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  /** The preset pointed at the scripted server: its OpenAI base URL, or for Azure the server as the resource's endpoint. */
  function config(id: ProviderId, extra: Partial<ProviderConfig> = {}): ProviderConfig {
    const azure = id === 'azure-openai';
    return { provider: id, model: azure ? 'my-gpt-4o' : 'scripted-model', apiKey: 'test-key', baseUrl: azure ? server.url : server.openAiBaseUrl, ...extra };
  }

  async function send(id: ProviderId, reply: ScriptedReply, extra: Partial<ProviderConfig> = {}, tools = false) {
    server.enqueue(reply);
    const result = await collect(createProvider(config(id, extra)).createMessage({ ...HELLO, ...(tools ? { tools: READ_FILE_TOOLS } : {}) }));
    return { ...result, request: server.requestAt(server.requests.length - 1) };
  }

  for (const id of OPENAI_WIRE) {
    test(`${id}: streams text, native tool calls and usage through its SDK client`, async () => {
      const usageIn = id === 'mistral' ? 'final-chunk' : id === 'groq' ? 'x_groq' : 'usage-chunk';
      const { text, toolCalls, usages, error } = await send(
        id,
        {
          text: 'Reading it.',
          toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' }, id: 'call_1' }],
          usage: { input: 120, output: 30, cacheRead: 20 },
          usageIn,
        },
        { toolProtocol: 'native' },
        true,
      );
      assert.equal(error, undefined);
      assert.equal(text, 'Reading it.');
      assert.deepEqual(
        toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
        [['call_1', 'read_file', { path: 'a.ts' }]],
      );
      assert.deepEqual(usages, [{ inputTokens: 120, outputTokens: 30, cacheReadTokens: 20 }]);
    });

    test(`${id}: a 401 names the preset's key variable and is not retried; a 503 is retryable`, async () => {
      const denied = await send(id, { fault: 'status', status: 401 });
      assert.ok(denied.error instanceof ProviderError, String(denied.error));
      assert.equal(denied.error.retryable, false);
      const entry = PROVIDERS.find((p) => p.id === id)!;
      assert.ok(denied.error.message.includes(entry.keyEnvVar), denied.error.message);
      const busy = await send(id, { fault: 'status', status: 503, retryAfterSeconds: 1 });
      assert.ok(busy.error instanceof ProviderError, String(busy.error));
      assert.equal(busy.error.retryable, true);
    });
  }

  test('Azure OpenAI: the deployment in the path, api-version in the query, the key in api-key', async () => {
    const { request } = await send('azure-openai', { text: 'ok' });
    assert.equal(request.path, '/openai/deployments/my-gpt-4o/chat/completions');
    assert.equal(request.query['api-version'], DEFAULT_AZURE_API_VERSION);
    assert.equal(request.headers['api-key'], 'test-key');
    assert.equal(request.headers.authorization, undefined);
    const configured = await send('azure-openai', { text: 'ok' }, { apiVersion: '2025-04-01-preview', maxOutputTokens: 500 });
    assert.equal(configured.request.query['api-version'], '2025-04-01-preview');
    assert.equal(configured.request.body.max_completion_tokens, 500, 'reasoning deployments refuse max_tokens');
  });

  test('Azure OpenAI: a pasted request URL gives the endpoint and its api-version', () => {
    assert.deepEqual(azureEndpoint('https://res.openai.azure.com/openai/deployments/gpt/chat/completions?api-version=2024-08-01-preview', undefined), {
      endpoint: 'https://res.openai.azure.com',
      apiVersion: '2024-08-01-preview',
    });
    assert.deepEqual(azureEndpoint('https://res.openai.azure.com/', '2025-01-01-preview'), {
      endpoint: 'https://res.openai.azure.com',
      apiVersion: '2025-01-01-preview',
    });
  });

  test('Azure OpenAI without an endpoint or a deployment says what to set', () => {
    assert.throws(() => createProvider({ provider: 'azure-openai', model: 'gpt', apiKey: 'k' }), /endpoint.*--base-url/);
    assert.throws(() => createProvider({ provider: 'azure-openai', model: ' ', apiKey: 'k', baseUrl: server.url }), /deployment/);
    assert.throws(() => createProvider({ provider: 'azure-openai', model: 'gpt', baseUrl: server.url }), /AZURE_OPENAI_API_KEY/);
  });

  test('Mistral gets no stream_options (it answers 422) and still reports usage', async () => {
    const { request, usages } = await send('mistral', { text: 'ok', usage: { input: 10, output: 2 }, usageIn: 'final-chunk' });
    assert.equal(request.body.stream_options, undefined);
    assert.deepEqual(usages, [{ inputTokens: 10, outputTokens: 2 }]);
  });

  test('OpenRouter: the app header, reasoning as {effort}, and the reasoning field streamed back', async () => {
    const { request, reasoning } = await send(
      'openrouter',
      { text: 'ok', reasoning: 'thinking', reasoningField: 'reasoning' },
      { reasoning: { effort: 'high' } },
    );
    assert.equal(request.headers['x-title'], 'Smith');
    assert.deepEqual(request.body.reasoning, { effort: 'high' });
    assert.equal(request.body.reasoning_effort, undefined);
    assert.equal(reasoning, 'thinking');
  });

  test('DeepSeek: no reasoning_effort, which its API does not take', async () => {
    const { request } = await send('deepseek', { text: 'ok' }, { reasoning: { effort: 'low' } });
    assert.equal(request.body.reasoning_effort, undefined);
  });

  test('Groq: usage from x_groq when the last chunk carries it there', async () => {
    const { usages } = await send('groq', { text: 'ok', usage: { input: 7, output: 3 }, usageIn: 'x_groq' });
    assert.deepEqual(usages, [{ inputTokens: 7, outputTokens: 3 }]);
  });

  test('local servers need no key; a hosted service without one names its variable', async () => {
    for (const id of ['ollama', 'lmstudio', 'vllm'] as const) {
      server.enqueue({ text: 'ok' });
      const { text } = await collectOk(createProvider({ provider: id, model: 'qwen3', baseUrl: server.openAiBaseUrl }).createMessage(HELLO));
      assert.equal(text, 'ok');
    }
    assert.throws(() => createProvider({ provider: 'groq', model: 'llama' }), /No API key for Groq\. Set the GROQ_API_KEY/);
  });

  test('each preset connects to its own base URL unless one is configured', () => {
    for (const entry of PROVIDERS.filter((p) => p.api === 'openai-compatible' && !p.baseUrlRequired)) {
      const { client } = createOpenAiClient({ id: entry.id, model: 'm', keySource: entry.keyEnvVar });
      assert.equal(client.baseURL, entry.baseUrl, entry.id);
    }
    assert.equal(createOpenAiClient({ id: 'groq', model: 'm', baseUrl: 'http://proxy/v1', keySource: '' }).client.baseURL, 'http://proxy/v1');
  });
});
