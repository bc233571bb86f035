import assert from 'node:assert/strict';
import { test } from 'node:test';
import { USAGE } from '../../../src/cli/args.js';
import { providerConfigFrom } from '../../../src/cli/provider-settings.js';
import { apiKeyEnvVar } from '../../../src/core/providers/create-provider.js';
import { DEFAULT_MODELS } from '../../../src/shared/provider-setup.js';
import { isProviderId, PROVIDER_IDS, PROVIDERS } from '../../../src/shared/providers.js';

test('every consumer derives its providers from the one registry', () => {
  assert.deepEqual(PROVIDER_IDS, PROVIDERS.map((p) => p.id));
  for (const provider of PROVIDERS) {
    assert.equal(apiKeyEnvVar(provider.id), provider.keyEnvVar);
    assert.equal(DEFAULT_MODELS[provider.id], provider.defaultModel);
    assert.ok(USAGE.includes(provider.keyEnvVar), `the CLI help names ${provider.keyEnvVar}`);
    assert.ok(USAGE.includes(provider.id), `the CLI help names ${provider.id}`);
    assert.ok(isProviderId(provider.id));
  }
  assert.equal(isProviderId('bedrock'), false);
  assert.deepEqual(Object.keys(DEFAULT_MODELS), [...PROVIDER_IDS]);
});

test('the CLI picks the vendor whose key is set, in list order, and names them all when none is', () => {
  const options = { cwd: '.', modelOverrides: {} } as Parameters<typeof providerConfigFrom>[0];
  for (const provider of PROVIDERS.filter((p) => p.id !== 'openai-compatible')) {
    assert.equal(providerConfigFrom(options, { [provider.keyEnvVar]: 'k' }).provider, provider.id);
  }
  assert.throws(() => providerConfigFrom(options, {}), (error: Error) => PROVIDERS.filter((p) => p.id !== 'openai-compatible').every((p) => error.message.includes(p.keyEnvVar)));
});
