import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { USAGE } from '../../../src/cli/usage-text.js';
import { KEYED_PROVIDERS, providerConfigFrom } from '../../../src/cli/provider-settings.js';
import { apiKeyEnvVar } from '../../../src/core/providers/create-provider.js';
import { DEFAULT_MODELS } from '../../../src/shared/provider-setup.js';
import { isProviderId, PROVIDER_IDS, PROVIDERS } from '../../../src/shared/providers.js';
import { apiProfileSchema } from '../../../src/shared/protocol.js';
import { OPENAI_APIS } from '../../../src/shared/provider-schemas.js';

test('every consumer derives its providers from the one registry', () => {
  assert.deepEqual(
    PROVIDER_IDS,
    PROVIDERS.map((p) => p.id),
  );
  for (const provider of PROVIDERS) {
    assert.equal(apiKeyEnvVar(provider.id), provider.keyEnvVar);
    assert.equal(DEFAULT_MODELS[provider.id], provider.defaultModel);
    assert.ok(USAGE.includes(provider.keyEnvVar), `the CLI help names ${provider.keyEnvVar}`);
    assert.ok(USAGE.includes(provider.id), `the CLI help names ${provider.id}`);
    assert.ok(isProviderId(provider.id));
  }
  assert.equal(isProviderId('nobody'), false);
  assert.deepEqual(Object.keys(DEFAULT_MODELS), [...PROVIDER_IDS]);
});

test('the CLI picks the hosted service whose key is set, in list order, and names them all when none is', () => {
  const options = { cwd: '.', modelOverrides: {} } as Parameters<typeof providerConfigFrom>[0];
  assert.deepEqual(
    KEYED_PROVIDERS.slice(0, 3).map((p) => p.id),
    ['anthropic', 'openai', 'gemini'],
  );
  for (const provider of KEYED_PROVIDERS) {
    assert.equal(providerConfigFrom(options, { [provider.keyEnvVar]: 'k' }).provider, provider.id);
  }
  // A local server's or Azure's variable alone does not pick them: they need a model or an endpoint too.
  assert.ok(!KEYED_PROVIDERS.some((p) => ['ollama', 'azure-openai', 'openai-compatible'].includes(p.id)));
  assert.throws(
    () => providerConfigFrom(options, {}),
    (error: Error) => KEYED_PROVIDERS.every((p) => error.message.includes(p.keyEnvVar)),
  );
  assert.equal(providerConfigFrom({ ...options, baseUrl: 'http://localhost:9/v1', model: 'm' }, {}).provider, 'openai-compatible');
});

test("Azure OpenAI takes its api-version from OPENAI_API_VERSION, as Azure's tools do", () => {
  const options = { cwd: '.', modelOverrides: {}, provider: 'azure-openai', model: 'dep' } as Parameters<typeof providerConfigFrom>[0];
  assert.equal(providerConfigFrom(options, { OPENAI_API_VERSION: '2025-04-01-preview' }).apiVersion, '2025-04-01-preview');
  assert.equal(providerConfigFrom(options, {}).apiVersion, undefined);
});

test("the VS Code setting lists every provider, in the registry's order, each with a description", () => {
  const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
  const setting = manifest.contributes.configuration.properties['smith.provider'];
  assert.deepEqual(setting.enum, [...PROVIDER_IDS]);
  assert.equal(setting.enumDescriptions.length, PROVIDER_IDS.length);
  assert.equal(setting.default, PROVIDER_IDS[0]);
  const openAiApi = manifest.contributes.configuration.properties['smith.openAiApi'];
  assert.deepEqual(openAiApi.enum, ['', ...OPENAI_APIS], 'smith.openAiApi offers the APIs the engine speaks');
  const profiles = manifest.contributes.configuration.properties['smith.profiles'];
  assert.deepEqual(profiles.additionalProperties.properties.provider.enum, [...PROVIDER_IDS], 'a profile names a provider of the registry');
  assert.deepEqual(profiles.additionalProperties.properties.openAiApi.enum, [...OPENAI_APIS]);
  assert.deepEqual(
    Object.keys(profiles.additionalProperties.properties),
    Object.keys(apiProfileSchema.shape),
    'the setting takes the fields the profile schema does',
  );
});

test('every preset has what it needs to connect: a default address unless the user must give one', () => {
  for (const provider of PROVIDERS) {
    if (provider.api === 'openai-compatible') assert.ok(provider.baseUrl !== '' || provider.baseUrlRequired, provider.id);
    if (provider.baseUrlRequired) assert.equal(provider.baseUrl, '', provider.id);
    if (provider.local) assert.equal(provider.keyRequired, false, provider.id);
  }
});
