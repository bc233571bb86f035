import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { UsageError } from '../../../src/cli/usage-error.js';
import { cliRedactor } from '../../../src/cli/cli-secrets.js';
import { providerConfigFrom } from '../../../src/cli/provider-settings.js';
import { matchingProfile, parseProfiles, profileChoice, profileOf } from '../../../src/shared/api-profiles.js';
import { parseWebviewMessage } from '../../../src/shared/protocol.js';

describe('API profiles', () => {
  test('valid profiles are kept; a bad one is left out and named, the others stay', () => {
    const { profiles, problems } = parseProfiles(
      {
        work: { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' },
        local: { provider: 'ollama', model: 'qwen2.5-coder:7b', baseUrl: 'http://gpu-box:11434/v1' },
        typo: { provider: 'openruoter' },
        extra: { provider: 'openai', apiKey: 'sk-not-here' },
        'bad/name': { provider: 'openai' },
        leaky: { provider: 'openai', apiKeyEnv: 'HOME' },
      },
      'settings.json',
    );
    assert.deepEqual(Object.keys(profiles), ['work', 'local']);
    assert.equal(problems.length, 4);
    assert.match(problems.join('\n'), /profile "typo": provider/);
    assert.match(problems.join('\n'), /profile "extra": .*apiKey/, 'a key never goes in a profile');
    assert.match(problems.join('\n'), /profile name "bad\/name"/);
    assert.match(problems.join('\n'), /profile "leaky": apiKeyEnv must be an environment variable named …_API_KEY/);
    assert.deepEqual(parseProfiles([1], 'f').problems, ['f: "profiles" must be an object of named profiles']);
    assert.deepEqual(parseProfiles(undefined, 'f'), { profiles: {}, problems: [] });
  });

  test('a profile fills the form with its fields and the provider defaults; the settings that match it name it', () => {
    const work = { provider: 'openrouter' as const, model: 'qwen/qwen3-coder', reasoningEffort: 'high' as const };
    const choice = profileChoice(work);
    assert.deepEqual(choice, {
      provider: 'openrouter',
      model: 'qwen/qwen3-coder',
      baseUrl: '',
      toolProtocol: 'xml',
      planModel: '',
      actModel: '',
      reasoningEffort: 'high',
    });
    assert.deepEqual(profileChoice({ provider: 'anthropic' }).model, 'claude-sonnet-4-5');
    assert.equal(matchingProfile({ work }, choice), 'work');
    assert.equal(matchingProfile({ work }, { ...choice, model: 'other' }), undefined);
    assert.deepEqual(profileOf({ provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: ' ', toolProtocol: 'xml', reasoningEffort: 'off' }), {
      provider: 'anthropic',
    });
    assert.deepEqual(profileOf({ provider: 'ollama', model: 'qwen3', baseUrl: 'http://h:1/v1', toolProtocol: 'native', planModel: 'big' }), {
      provider: 'ollama',
      model: 'qwen3',
      baseUrl: 'http://h:1/v1',
      toolProtocol: 'native',
      planModel: 'big',
    });
  });

  test('the Settings view may ask to save its choice as a profile; the name is checked like a profile name', () => {
    const save = { type: 'saveSettings', id: 'a', provider: 'ollama', model: 'qwen3', baseUrl: '', toolProtocol: 'xml' };
    assert.equal(parseWebviewMessage({ ...save, saveAsProfile: 'gpu box' }).ok, true);
    assert.equal(parseWebviewMessage({ ...save, saveAsProfile: '' }).ok, false);
    assert.equal(parseWebviewMessage({ ...save, saveAsProfile: '../etc' }).ok, false);
  });

  describe('the CLI picks a profile from the user settings file', () => {
    let storage: string;
    const options = (extra: object = {}) => ({ cwd: '.', modelOverrides: {}, storage, ...extra }) as Parameters<typeof providerConfigFrom>[0];
    beforeEach(() => {
      storage = mkdtempSync(join(tmpdir(), 'smith-profiles-'));
      writeFileSync(
        join(storage, 'settings.json'),
        `{
  // Comments are allowed, as in the rest of the file.
  "permissions": { "allow": [] },
  "profiles": {
    "local": { "provider": "ollama", "model": "qwen2.5-coder:7b", "baseUrl": "http://gpu-box:11434/v1", "toolProtocol": "native" },
    "second-key": { "provider": "openrouter", "model": "qwen/qwen3-coder", "apiKeyEnv": "OPENROUTER_WORK_API_KEY", "reasoningEffort": "low" },
    "azure": { "provider": "azure-openai", "model": "gpt-4o-deployment", "baseUrl": "https://res.openai.azure.com", "apiVersion": "2025-01-01-preview" },
    "azure-codex": { "provider": "azure-openai", "model": "codex-deployment", "baseUrl": "https://res.openai.azure.com", "openAiApi": "responses" },
  },
}`,
      );
    });
    afterEach(() => rmSync(storage, { recursive: true, force: true }));

    test('--profile or SMITH_PROFILE gives provider, model, address and protocol; flags win field by field', () => {
      assert.deepEqual(providerConfigFrom(options({ profile: 'local' }), {}), {
        provider: 'ollama',
        model: 'qwen2.5-coder:7b',
        baseUrl: 'http://gpu-box:11434/v1',
        toolProtocol: 'native',
      });
      assert.equal(providerConfigFrom(options(), { SMITH_PROFILE: 'local' }).provider, 'ollama');
      const overridden = providerConfigFrom(options({ profile: 'local', model: 'llama3.1', toolProtocol: 'xml' }), {});
      assert.deepEqual([overridden.model, overridden.toolProtocol, overridden.baseUrl], ['llama3.1', 'xml', 'http://gpu-box:11434/v1']);
      assert.equal(providerConfigFrom(options({ profile: 'azure' }), {}).apiVersion, '2025-01-01-preview');
    });

    test("a profile's openAiApi picks the OpenAI API; --openai-api wins over it", () => {
      assert.equal(providerConfigFrom(options({ profile: 'azure-codex' }), {}).openAiApi, 'responses');
      assert.equal(providerConfigFrom(options({ profile: 'azure-codex', openAiApi: 'chat-completions' }), {}).openAiApi, 'chat-completions');
      assert.equal(providerConfigFrom(options({ profile: 'azure' }), {}).openAiApi, undefined);
    });

    test("a profile's own key variable is read (and redacted); the provider's is the fallback", () => {
      const env = { OPENROUTER_WORK_API_KEY: 'sk-or-work-123456', OPENROUTER_API_KEY: 'sk-or-home-123456' };
      const config = providerConfigFrom(options({ profile: 'second-key' }), env);
      assert.deepEqual([config.apiKey, config.reasoning], ['sk-or-work-123456', { effort: 'low' }]);
      assert.equal(providerConfigFrom(options({ profile: 'second-key' }), { OPENROUTER_API_KEY: 'sk-or-home-123456' }).apiKey, 'sk-or-home-123456');
      assert.equal(cliRedactor(env).redact('key sk-or-work-123456 used'), 'key [REDACTED] used');
    });

    test('an unknown profile is a usage error naming the ones there are', () => {
      assert.throws(
        () => providerConfigFrom(options({ profile: 'nope' }), {}),
        (error: Error) =>
          error instanceof UsageError && /no API profile named "nope"; the profiles are local, second-key, azure, azure-codex/.test(error.message),
      );
      rmSync(join(storage, 'settings.json'));
      assert.throws(() => providerConfigFrom(options({ profile: 'local' }), {}), /add it under "profiles" in .*settings\.json/);
    });
  });
});
