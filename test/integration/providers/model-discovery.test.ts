import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { listModels } from '../../../src/core/providers/list-models.js';
import { ModelFactsCache } from '../../../src/core/providers/model-facts-cache.js';
import { MODEL_FACTS_MAX_AGE_MS, modelFactsFor, providerModels } from '../../../src/core/providers/provider-models.js';
import type { ProviderConfig } from '../../../src/core/providers/types.js';
import { LM_STUDIO_MODELS, OLLAMA_SHOW_LLAMA, OLLAMA_SHOW_QWEN, OPENROUTER_MODELS, TOGETHER_MODELS } from '../../fixtures/model-listings.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';

describe('model facts found at the provider', () => {
  let server: ScriptedLlmServer;
  let storage: string;
  let cache: ModelFactsCache;
  before(async () => (server = await startScriptedLlmServer()));
  after(() => server.close());
  beforeEach(() => {
    storage = mkdtempSync(join(tmpdir(), 'smith-facts-'));
    cache = ModelFactsCache.in(storage);
    for (const key of ['ids', 'body', 'status', 'ollama', 'lmStudio'] as const) delete server.models[key];
    server.models.requests.length = 0;
    server.models.headers.length = 0;
  });
  afterEach(() => rmSync(storage, { recursive: true, force: true }));

  const openrouter = (): ProviderConfig => ({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5', apiKey: 'or-key', baseUrl: server.openAiBaseUrl });
  const ollama = (model = 'qwen2.5-coder:7b'): ProviderConfig => ({ provider: 'ollama', model, baseUrl: server.openAiBaseUrl });

  test('OpenRouter: the picker lists each model with its window and prices, and the list is cached with its time', async () => {
    server.models.body = OPENROUTER_MODELS;
    const listed = await providerModels(openrouter(), { cache, now: () => 1_000 });
    assert.equal(listed.source, 'server');
    const sonnet = listed.models.find((m) => m.id === 'anthropic/claude-sonnet-4.5');
    assert.deepEqual(
      [sonnet?.contextWindow, sonnet?.inputPrice, sonnet?.outputPrice, sonnet?.supportsImages, sonnet?.supportsTools],
      [1_000_000, 3, 15, true, true],
    );
    assert.deepEqual(server.models.requests, ['GET /v1/models']);
    const stored = JSON.parse(readFileSync(join(storage, 'model-facts.json'), 'utf8'));
    assert.equal(stored.servers[`openrouter ${server.openAiBaseUrl}`].fetchedAt, 1_000);
    assert.equal(stored.servers[`openrouter ${server.openAiBaseUrl}`].models.length, 3);
  });

  test('a task finds its model in the fresh cache without asking, and asks again once it is stale', async () => {
    server.models.body = OPENROUTER_MODELS;
    let now = 5_000;
    const first = await modelFactsFor(openrouter(), { cache, now: () => now });
    assert.equal(first?.inputPrice, 3);
    assert.equal(server.models.requests.length, 1);
    now += MODEL_FACTS_MAX_AGE_MS - 1;
    assert.equal((await modelFactsFor(openrouter(), { cache, now: () => now }))?.contextWindow, 1_000_000);
    assert.equal(server.models.requests.length, 1, 'a fresh cache answers');
    now += 2;
    await modelFactsFor(openrouter(), { cache, now: () => now });
    assert.equal(server.models.requests.length, 2, 'a stale cache is refreshed');
  });

  test('Ollama: the picker shows every pulled model from /api/tags and /api/show; a task asks for its model only', async () => {
    server.models.ollama = { 'qwen2.5-coder:7b': OLLAMA_SHOW_QWEN, 'llama3.1:8b': OLLAMA_SHOW_LLAMA };
    const listed = await providerModels(ollama(), { cache });
    assert.deepEqual(
      listed.models.map((m) => [m.id, m.contextWindow, m.inputPrice, m.supportsTools]),
      [
        ['llama3.1:8b', 131_072, 0, false],
        ['qwen2.5-coder:7b', 32_768, 0, true],
      ],
    );
    server.models.requests.length = 0;
    const fresh = ModelFactsCache.in(mkdtempSync(join(storage, 'other-')));
    const facts = await modelFactsFor(ollama('llama3.1:8b'), { cache: fresh });
    assert.equal(facts?.contextWindow, 131_072);
    assert.deepEqual(server.models.requests, ['POST /api/show']);
    assert.deepEqual(await listModels(ollama()), ['llama3.1:8b', 'qwen2.5-coder:7b']);
  });

  test('LM Studio: /api/v0/models beside /v1, embeddings left out', async () => {
    server.models.lmStudio = LM_STUDIO_MODELS;
    const listed = await providerModels({ provider: 'lmstudio', model: 'x', baseUrl: server.openAiBaseUrl });
    assert.deepEqual(
      listed.models.map((m) => [m.id, m.contextWindow, m.supportsImages]),
      [
        ['meta-llama-3.1-8b-instruct', 8192, false],
        ['qwen2-vl-7b-instruct', 32_768, true],
      ],
    );
    assert.deepEqual(server.models.requests, ['GET /api/v0/models']);
  });

  test('Together: its bare array with prices per million', async () => {
    server.models.body = TOGETHER_MODELS;
    const facts = await modelFactsFor({ provider: 'together', model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo', apiKey: 'k', baseUrl: server.openAiBaseUrl });
    assert.deepEqual([facts?.contextWindow, facts?.inputPrice, facts?.outputPrice], [131_072, 0.88, 0.88]);
  });

  test('DeepSeek: /models names ids only; the catalogue adds windows and prices to the models it knows', async () => {
    server.models.ids = ['deepseek-chat', 'deepseek-reasoner', 'deepseek-next'];
    const deepseek = (model: string): ProviderConfig => ({ provider: 'deepseek', model, apiKey: 'k', baseUrl: server.openAiBaseUrl });
    const listed = await providerModels(deepseek('deepseek-chat'), { cache });
    assert.equal(listed.source, 'server');
    assert.deepEqual(
      listed.models.map((m) => [m.id, m.contextWindow, m.inputPrice, m.outputPrice]),
      [
        ['deepseek-chat', 128_000, 0.28, 0.42],
        ['deepseek-next', undefined, undefined, undefined],
        ['deepseek-reasoner', 128_000, 0.28, 0.42],
      ],
    );
    assert.equal((await modelFactsFor(deepseek('deepseek-reasoner'), { cache }))?.supportsReasoning, true);
  });

  test('a failing /models: the picker says why and offers the list it cached, else the catalogue', async () => {
    server.models.body = OPENROUTER_MODELS;
    await providerModels(openrouter(), { cache, now: () => 42 });
    server.models.status = 500;
    const cached = await providerModels(openrouter(), { cache });
    assert.equal(cached.source, 'cache');
    assert.equal(cached.fetchedAt, 42);
    assert.equal(cached.models.length, 3);
    assert.match(cached.error ?? '', /Server error from OpenRouter \(HTTP 500\)/);
    const nothing = await providerModels(openrouter());
    assert.deepEqual([nothing.source, nothing.models.length], ['catalogue', 0]);
    // Azure deployments are not listed: the catalogue offers OpenAI's models.
    const azure = await providerModels({ provider: 'azure-openai', model: 'dep', apiKey: 'k', baseUrl: server.url });
    assert.equal(azure.source, 'catalogue');
    assert.ok(azure.models.some((m) => m.id === 'gpt-4.1' && m.inputPrice === 2));
  });

  test('garbage from /models is named for what it is', async () => {
    server.models.body = '<!DOCTYPE html><html><body>Sign in to the proxy</body></html>';
    const html = await providerModels(openrouter());
    assert.match(html.error ?? '', /OpenRouter answered GET \/models at .* with something that is not JSON \(text\/html; charset=utf-8\): <!DOCTYPE html>/);
    server.models.body = { models: 'none here' };
    const json = await providerModels(openrouter());
    assert.match(json.error ?? '', /OpenRouter answered GET \/models with JSON Smith does not understand \(expected a list of models/);
    server.models.status = 401;
    const denied = await providerModels(openrouter());
    assert.match(denied.error ?? '', /OpenRouter rejected the API key \(HTTP 401\)\. Check OPENROUTER_API_KEY/);
  });

  test('a task never fails for want of facts: an unreachable server or a broken cache file gives the stale facts, or none', async () => {
    server.models.body = OPENROUTER_MODELS;
    await modelFactsFor(openrouter(), { cache, now: () => 0 });
    server.models.status = 503;
    const stale = await modelFactsFor(openrouter(), { cache, now: () => MODEL_FACTS_MAX_AGE_MS * 2 });
    assert.equal(stale?.inputPrice, 3, 'the stale facts rather than none');
    writeFileSync(join(storage, 'model-facts.json'), '{ not json');
    assert.equal(await modelFactsFor(openrouter(), { cache }), undefined);
    const closed = await startScriptedLlmServer();
    await closed.close();
    assert.equal(await modelFactsFor({ ...openrouter(), baseUrl: closed.openAiBaseUrl }, { cache }), undefined);
    // The catalogue describes OpenAI's and Anthropic's models: their servers are not asked.
    server.models.requests.length = 0;
    assert.equal(await modelFactsFor({ provider: 'openai', model: 'gpt-4.1', apiKey: 'k', baseUrl: server.openAiBaseUrl }, { cache }), undefined);
    assert.deepEqual(server.models.requests, []);
  });

  test("a key is sent as a bearer token, with OpenRouter's own header; a local server gets none", async () => {
    server.models.body = OPENROUTER_MODELS;
    await providerModels(openrouter());
    assert.equal(server.models.headers[0]?.authorization, 'Bearer or-key');
    assert.equal(server.models.headers[0]?.['x-title'], 'Smith');
    server.models.ollama = { 'qwen2.5-coder:7b': OLLAMA_SHOW_QWEN };
    await modelFactsFor(ollama(), { cache });
    assert.equal(server.models.headers[1]?.authorization, undefined);
  });
});
