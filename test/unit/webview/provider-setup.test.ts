import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import type { ProviderName } from '../../../src/shared/protocol.js';
import { DEFAULT_MODELS, missingSetup, modelAfterProviderChange } from '../../../src/shared/provider-setup.js';

describe('missingSetup', () => {
  test('names what each provider lacks', () => {
    assert.deepEqual(missingSetup({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: '' }, false), ['apiKey']);
    assert.deepEqual(missingSetup({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: '' }, true), []);
    assert.deepEqual(missingSetup({ provider: 'openai-compatible', model: '', baseUrl: '' }, false), ['baseUrl', 'model']);
    assert.deepEqual(missingSetup({ provider: 'openai-compatible', model: 'qwen', baseUrl: 'http://localhost:11434/v1' }, false), []);
    assert.deepEqual(missingSetup({ provider: 'gemini', model: ' ', baseUrl: '' }, true), ['model']);
    // VS Code reaches its models itself, and answers with its first one when none is named.
    assert.deepEqual(missingSetup({ provider: 'vscode-lm', model: '', baseUrl: '' }, false), []);
  });

  test('agrees with the engine: a setup with nothing missing builds a provider, any other is refused', () => {
    const providers: ProviderName[] = ['anthropic', 'openai', 'openai-compatible', 'gemini'];
    for (const provider of providers) {
      for (const model of ['', 'some-model']) {
        for (const baseUrl of ['', 'http://127.0.0.1:9/v1']) {
          for (const apiKey of [undefined, 'sk-test']) {
            const missing = missingSetup({ provider, model, baseUrl }, apiKey !== undefined);
            const build = () => createProvider({ provider, model, ...(apiKey ? { apiKey } : {}), ...(baseUrl ? { baseUrl } : {}) });
            if (missing.length === 0) assert.doesNotThrow(build, `${provider} ${model} ${baseUrl} ${apiKey}`);
            else assert.throws(build, Error, `${provider} ${model} ${baseUrl} ${apiKey} (missing ${missing.join(', ')})`);
          }
        }
      }
    }
  });
});

describe('modelAfterProviderChange', () => {
  test('a default model follows the provider; a model the user typed stays', () => {
    assert.equal(modelAfterProviderChange(DEFAULT_MODELS.anthropic, 'anthropic', 'openai'), DEFAULT_MODELS.openai);
    // A local server has no default: the field empties, and the setup asks for a model.
    assert.equal(modelAfterProviderChange(DEFAULT_MODELS.anthropic, 'anthropic', 'openai-compatible'), '');
    assert.deepEqual(
      missingSetup(
        {
          provider: 'openai-compatible',
          model: modelAfterProviderChange(DEFAULT_MODELS.anthropic, 'anthropic', 'openai-compatible'),
          baseUrl: 'http://127.0.0.1:11434/v1',
        },
        false,
      ),
      ['model'],
    );
    assert.equal(modelAfterProviderChange('', 'openai-compatible', 'gemini'), DEFAULT_MODELS.gemini);
    assert.equal(modelAfterProviderChange('qwen2.5-coder', 'openai-compatible', 'openai'), 'qwen2.5-coder');
  });
});
