import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { apiKeyEnvVar, createProvider } from '../../../src/core/providers/create-provider.js';
import { CONTINUATION_PLACEHOLDER, normalizeConversation } from '../../../src/core/providers/message-conversion.js';
import { ProviderError } from '../../../src/core/providers/types.js';
import { PROVIDER_IDS } from '../../../src/shared/providers.js';
import type { ProviderConfig } from '../../../src/core/providers/types.js';
import { startScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import type { ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { collect, collectOk } from './stream-helpers.js';

function creationError(config: ProviderConfig): ProviderError {
  try {
    createProvider(config);
  } catch (err) {
    assert.ok(err instanceof ProviderError, String(err));
    return err;
  }
  assert.fail('createProvider should have thrown');
}

describe('createProvider', () => {
  test("apiKeyEnvVar names each provider's variable", () => {
    assert.equal(apiKeyEnvVar('openai'), 'OPENAI_API_KEY');
    assert.equal(apiKeyEnvVar('anthropic'), 'ANTHROPIC_API_KEY');
    assert.equal(apiKeyEnvVar('openai-compatible'), 'SMITH_API_KEY');
    assert.equal(apiKeyEnvVar('gemini'), 'GEMINI_API_KEY');
  });

  test('a missing or blank key for openai and anthropic names the environment variable', () => {
    assert.match(creationError({ provider: 'openai', model: 'gpt-test' }).message, /OPENAI_API_KEY/);
    assert.match(creationError({ provider: 'openai', model: 'gpt-test', apiKey: '  ' }).message, /OPENAI_API_KEY/);
    assert.match(creationError({ provider: 'anthropic', model: 'claude-test' }).message, /ANTHROPIC_API_KEY/);
    assert.match(creationError({ provider: 'gemini', model: 'gemini-2.5-flash' }).message, /GEMINI_API_KEY/);
  });

  test('an unknown provider lists the ones there are', () => {
    assert.match(
      creationError({ provider: 'nowhere' as never, model: 'm', apiKey: 'k' }).message,
      new RegExp(`Unknown provider "nowhere"\\. Use one of ${PROVIDER_IDS.join(', ')}\\.`),
    );
  });

  test('openai-compatible without a base URL names --base-url', () => {
    const error = creationError({ provider: 'openai-compatible', model: 'llama3' });
    assert.match(error.message, /--base-url/);
    assert.equal(error.retryable, false);
  });

  test('a blank model is refused', () => {
    assert.match(creationError({ provider: 'openai', model: ' ', apiKey: 'k' }).message, /No model/);
  });

  test('builds providers with the configured id and model', () => {
    const openai = createProvider({ provider: 'openai', model: 'gpt-test', apiKey: 'k' });
    const anthropic = createProvider({ provider: 'anthropic', model: 'claude-test', apiKey: 'k' });
    const compatible = createProvider({ provider: 'openai-compatible', model: 'llama3', baseUrl: 'http://localhost:11434/v1' });
    const gemini = createProvider({ provider: 'gemini', model: 'gemini-2.5-pro', apiKey: 'k' });
    assert.deepEqual([gemini.id, gemini.modelId], ['gemini', 'gemini-2.5-pro']);
    assert.deepEqual([openai.id, openai.modelId], ['openai', 'gpt-test']);
    assert.deepEqual([anthropic.id, anthropic.modelId], ['anthropic', 'claude-test']);
    assert.deepEqual([compatible.id, compatible.modelId], ['openai-compatible', 'llama3']);
  });
});

describe('normalizeConversation', () => {
  test('an empty conversation is a ProviderError, raised when the stream is read', async () => {
    assert.throws(() => normalizeConversation([]), ProviderError);
    const provider = createProvider({ provider: 'anthropic', model: 'claude-test', apiKey: 'k', baseUrl: 'http://127.0.0.1:9' });
    const { error } = await collect(provider.createMessage({ systemPrompt: 's', messages: [{ role: 'user', content: '' }] }));
    assert.ok(error instanceof ProviderError);
  });

  test('a conversation starting with the assistant gets a placeholder user turn', () => {
    assert.deepEqual(normalizeConversation([{ role: 'assistant', content: 'x' }]), [
      { role: 'user', content: CONTINUATION_PLACEHOLDER },
      { role: 'assistant', content: 'x' },
    ]);
  });
});

describe('openai-compatible end to end without a key', () => {
  let server: ScriptedLlmServer;
  before(async () => {
    server = await startScriptedLlmServer([{ text: 'no key needed', usage: { input: 3, output: 4 } }]);
  });
  after(() => server.close());

  test('streams a reply from a keyless local server', async () => {
    const provider = createProvider({ provider: 'openai-compatible', model: 'qwen', baseUrl: server.openAiBaseUrl });
    const result = await collectOk(provider.createMessage({ systemPrompt: 's', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(result.text, 'no key needed');
    assert.deepEqual(result.usages, [{ inputTokens: 3, outputTokens: 4 }]);
  });
});
