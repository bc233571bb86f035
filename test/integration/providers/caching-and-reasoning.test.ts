import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import type { ProviderConfig } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import type { RecordedRequest, ScriptedLlmServer, ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { collectOk } from './stream-helpers.js';

const EPHEMERAL = { type: 'ephemeral' };
const conversation = {
  systemPrompt: 'You are Smith.',
  messages: [
    { role: 'user' as const, content: 'first task' },
    { role: 'assistant' as const, content: 'first answer' },
    { role: 'user' as const, content: 'tool result' },
    { role: 'assistant' as const, content: 'second answer' },
    { role: 'user' as const, content: 'latest' },
  ],
};

describe('prompt caching and reasoning parameters on the wire', () => {
  let server: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  async function send(config: Omit<ProviderConfig, 'apiKey' | 'baseUrl'>, reply: ScriptedReply = { text: 'ok' }): Promise<RecordedRequest> {
    const baseUrls: Partial<Record<ProviderConfig['provider'], string>> = {
      openai: server.openAiBaseUrl,
      'openai-compatible': server.openAiBaseUrl,
      anthropic: server.anthropicBaseUrl,
      gemini: server.geminiBaseUrl,
    };
    const baseUrl = baseUrls[config.provider];
    server.enqueue(reply);
    await collectOk(createProvider({ ...config, apiKey: 'key', baseUrl }).createMessage(conversation));
    return server.requests.at(-1)!;
  }

  test('Anthropic: cache breakpoints on the system block and the last two user messages only', async () => {
    const { body } = await send({ provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' });
    assert.deepEqual(body.system, [{ type: 'text', text: 'You are Smith.', cache_control: EPHEMERAL }]);
    assert.deepEqual(body.messages, [
      { role: 'user', content: 'first task' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: [{ type: 'text', text: 'tool result', cache_control: EPHEMERAL }] },
      { role: 'assistant', content: 'second answer' },
      { role: 'user', content: [{ type: 'text', text: 'latest', cache_control: EPHEMERAL }] },
    ]);
    const breakpoints = JSON.stringify(body).split('"cache_control"').length - 1;
    assert.ok(breakpoints <= 4, 'Anthropic allows at most four breakpoints');
  });

  test('Anthropic: cache read and write tokens come back in usage', async () => {
    server.enqueue({ text: 'cached', usage: { input: 50, output: 10, cacheRead: 3000, cacheWrite: 400 } });
    const provider = createProvider({ provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'key', baseUrl: server.anthropicBaseUrl });
    const result = await collectOk(provider.createMessage(conversation));
    assert.deepEqual(result.usages, [{ inputTokens: 3450, outputTokens: 10, cacheReadTokens: 3000, cacheWriteTokens: 400 }]);
  });

  test('Anthropic: no thinking unless configured', async () => {
    const { body } = await send({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    assert.equal(body.thinking, undefined);
    assert.equal(body.max_tokens, 8192);
  });

  test('Anthropic: a thinking budget is sent, with max_tokens raised to leave room for the answer', async () => {
    const { body } = await send({ provider: 'anthropic', model: 'claude-sonnet-4-5', reasoning: { budgetTokens: 4000 } }, { text: 'ok', reasoning: 'hmm' });
    assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 4000 });
    assert.equal(body.max_tokens, 4000 + 8192);
  });

  test('Anthropic: an effort maps to a budget, and an explicit output cap shrinks the budget to fit', async () => {
    const high = await send({ provider: 'anthropic', model: 'claude-opus-4-1', reasoning: { effort: 'high' } });
    assert.deepEqual(high.body.thinking, { type: 'enabled', budget_tokens: 16_384 });
    assert.equal(high.body.max_tokens, 16_384 + 8192);
    const capped = await send({ provider: 'anthropic', model: 'claude-opus-4-1', reasoning: { effort: 'high' }, maxOutputTokens: 10_000 });
    assert.deepEqual(capped.body.thinking, { type: 'enabled', budget_tokens: 8000 });
    assert.equal(capped.body.max_tokens, 10_000);
  });

  test('Anthropic: a model without extended thinking gets no thinking parameter', async () => {
    const { body } = await send({ provider: 'anthropic', model: 'claude-3-5-haiku-latest', reasoning: { effort: 'high' } });
    assert.equal(body.thinking, undefined);
    assert.equal(body.max_tokens, 8192);
  });

  test('Anthropic: thinking streams as reasoning chunks', async () => {
    server.enqueue({ text: 'Answer.', reasoning: 'Let me think this through.' });
    const provider = createProvider({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'key',
      baseUrl: server.anthropicBaseUrl,
      reasoning: { effort: 'low' },
    });
    const result = await collectOk(provider.createMessage(conversation));
    assert.equal(result.reasoning, 'Let me think this through.');
    assert.equal(result.text, 'Answer.');
  });

  test('OpenAI: reasoning_effort for reasoning models only', async () => {
    const o4 = await send({ provider: 'openai', model: 'o4-mini', reasoning: { effort: 'high' } });
    assert.equal(o4.body.reasoning_effort, 'high');
    const gpt5 = await send({ provider: 'openai', model: 'gpt-5-2025-08-07', reasoning: { budgetTokens: 1000 } });
    assert.equal(gpt5.body.reasoning_effort, 'low', 'a budget alone maps to the nearest effort');
    const gpt4o = await send({ provider: 'openai', model: 'gpt-4o', reasoning: { effort: 'high' } });
    assert.equal('reasoning_effort' in gpt4o.body, false);
    const plain = await send({ provider: 'openai', model: 'o3' });
    assert.equal('reasoning_effort' in plain.body, false);
  });

  test('openai-compatible: reasoning_effort is sent when the user configured it', async () => {
    const { body } = await send({ provider: 'openai-compatible', model: 'qwen3', reasoning: { effort: 'medium' } });
    assert.equal(body.reasoning_effort, 'medium');
  });

  test('Gemini: thinkingConfig with includeThoughts for thinking models only', async () => {
    const pro = await send({ provider: 'gemini', model: 'gemini-2.5-pro', reasoning: { effort: 'low' } });
    assert.deepEqual(pro.body.generationConfig.thinkingConfig, { thinkingBudget: 2048, includeThoughts: true });
    const budget = await send({ provider: 'gemini', model: 'gemini-2.5-flash', reasoning: { budgetTokens: -1 } });
    assert.deepEqual(budget.body.generationConfig.thinkingConfig, { thinkingBudget: -1, includeThoughts: true });
    const old = await send({ provider: 'gemini', model: 'gemini-2.0-flash', reasoning: { effort: 'high' } });
    assert.equal(old.body.generationConfig?.thinkingConfig, undefined);
  });
});
