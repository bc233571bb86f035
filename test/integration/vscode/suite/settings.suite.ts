// Settings in the real workbench: `smith.*` configuration written and read back, and API keys kept
// in VS Code's SecretStorage (never in settings.json), with the CLI's environment variables as fallback.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { API_KEY_ENV_VARS, ProviderKeys, providerConfig, readSettings, saveProviderSettings, secretKey } from '../../../../src/host/vscode/settings';
import type { SmithApi } from '../../../../src/host/vscode/smith-api';
import { MemorySecrets } from './memory-secrets';

const KEYS = [
  'provider',
  'model',
  'baseUrl',
  'planModel',
  'actModel',
  'toolProtocol',
  'maxIterations',
  'autoApprove.readFiles',
  'autoApprove.editFiles',
  'autoApprove.safeCommands',
  'autoApprove.allCommands',
  'autoApprove.mcpTools',
  'autoApprove.maxConsecutive',
  'modelContextWindow',
  'modelInputPrice',
  'modelOutputPrice',
  'requestIdleTimeout',
  'checkpoints.enabled',
  'checkpoints.maxFileSizeMb',
  'maxCost',
  'permissions',
  'notifications',
  'sandbox',
  'sandboxNetwork',
  'sandboxAllowedHosts',
  'autoCondensePercent',
  'reasoningEffort',
  'autoApprove.browser',
  'browser.executablePath',
  'browser.cdpEndpoint',
  'browser.viewport',
  'browser.headless',
  'web.deniedDomains',
  'webSearch.backend',
  'webSearch.searxngUrl',
];

async function resetSettings(): Promise<void> {
  const config = vscode.workspace.getConfiguration('smith');
  for (const key of KEYS) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
}

describe('Smith settings', () => {
  let api: SmithApi;

  before(async () => {
    api = await vscode.extensions.getExtension<SmithApi>('smith.smith')!.activate();
    await resetSettings();
  });

  after(async () => {
    await resetSettings();
    for (const provider of ['openai', 'anthropic', 'openai-compatible', 'gemini'] as const) await api.keys.store(provider, '');
  });

  it('reads the defaults when nothing is configured', () => {
    const settings = readSettings();
    assert.equal(settings.provider, 'anthropic');
    assert.equal(settings.model, 'claude-sonnet-4-5');
    assert.equal(settings.maxIterations, 25);
    assert.equal(settings.policy.readFiles, true);
    assert.equal(settings.policy.editFiles, false);
    assert.equal(settings.policy.allCommands, false);
    assert.equal(settings.policy.outsideWorkspace, false);
    assert.equal(settings.planModel, '');
    assert.equal(settings.notifications, true);
  });

  it("reads the web tools' settings; a bad viewport keeps the default", async () => {
    const config = vscode.workspace.getConfiguration('smith');
    // web_search's backend defaults to auto (package.json's default): the first one set up, none: off.
    assert.deepEqual(readSettings().web, { browser: { viewport: { width: 900, height: 600 } }, deniedDomains: [], search: { backend: 'auto' } });
    assert.equal(readSettings().policy.browser, false);
    await config.update('autoApprove.browser', true, vscode.ConfigurationTarget.Global);
    await config.update('browser.executablePath', '/opt/chrome/chrome', vscode.ConfigurationTarget.Global);
    await config.update('browser.cdpEndpoint', 'http://127.0.0.1:9222', vscode.ConfigurationTarget.Global);
    await config.update('browser.viewport', '1280x800', vscode.ConfigurationTarget.Global);
    await config.update('browser.headless', false, vscode.ConfigurationTarget.Global);
    await config.update('web.deniedDomains', ['example.com', ' *.ads.net '], vscode.ConfigurationTarget.Global);
    await config.update('webSearch.backend', 'searxng', vscode.ConfigurationTarget.Global);
    await config.update('webSearch.searxngUrl', ' http://localhost:8888/ ', vscode.ConfigurationTarget.Global);
    const settings = readSettings();
    assert.equal(settings.policy.browser, true);
    assert.deepEqual(settings.web, {
      browser: { executablePath: '/opt/chrome/chrome', cdpEndpoint: 'http://127.0.0.1:9222', viewport: { width: 1280, height: 800 }, headed: true },
      deniedDomains: ['example.com', '*.ads.net'],
      search: { backend: 'searxng', searxngUrl: 'http://localhost:8888/' },
    });
    await config.update('browser.viewport', 'huge', vscode.ConfigurationTarget.Global);
    assert.equal(readSettings().web.browser?.viewport, undefined, 'a size that is not WIDTHxHEIGHT leaves the default to the browser');
    await resetSettings();
  });

  it('reads smith.autoCondensePercent as a share; out of range keeps 80 %', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    assert.equal(readSettings().autoCondenseAt, 0.8);
    await config.update('autoCondensePercent', 65, vscode.ConfigurationTarget.Global);
    assert.equal(readSettings().autoCondenseAt, 0.65);
    await config.update('autoCondensePercent', 5, vscode.ConfigurationTarget.Global);
    assert.equal(readSettings().autoCondenseAt, 0.8);
  });

  it('the chat’s auto-approve bar writes the toggles and limits to the settings, and the panel state shows them', async () => {
    await api.controller.listRequests.saveAutoApprove({ editFiles: true, mcpTools: true, maxRequests: 40, maxCost: 1.5 });
    const settings = readSettings();
    assert.equal(settings.policy.editFiles, true);
    assert.equal(settings.policy.mcpTools, true);
    assert.equal(settings.maxIterations, 40);
    assert.equal(settings.maxCost, 1.5);
    assert.deepEqual(api.controller.snapshot().autoApprove, {
      readFiles: true,
      editFiles: true,
      safeCommands: false,
      allCommands: false,
      mcpTools: true,
      maxRequests: 40,
      maxCost: 1.5,
    });
    await api.controller.listRequests.saveAutoApprove({ maxCost: 0 });
    assert.equal(readSettings().maxCost, undefined, '0 removes the limit');
  });

  it('reads smith.reasoningEffort and sends it to the provider; the Settings form saves it with the per-mode models', async () => {
    assert.equal(readSettings().reasoningEffort, 'off');
    assert.equal(providerConfig(readSettings(), 'key').reasoning, undefined);
    await api.controller.saveSettings({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      baseUrl: '',
      planModel: 'claude-opus-4-1',
      actModel: '',
      reasoningEffort: 'high',
    });
    const settings = readSettings();
    assert.equal(settings.reasoningEffort, 'high');
    assert.equal(settings.planModel, 'claude-opus-4-1');
    assert.deepEqual(providerConfig(settings, 'key').reasoning, { effort: 'high' });
    assert.deepEqual(api.controller.snapshot().settings.reasoningEffort, 'high');
  });

  it('reads smith.notifications; a value that is not a boolean keeps the default', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    await config.update('notifications', false, vscode.ConfigurationTarget.Global);
    assert.equal(readSettings().notifications, false);
    await config.update('notifications', 'no', vscode.ConfigurationTarget.Global);
    assert.equal(readSettings().notifications, true);
  });

  it('reads the sandbox settings: off by default, the network off unless asked, the allowed hosts listed', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    const target = vscode.ConfigurationTarget.Global;
    assert.equal(readSettings().sandbox, undefined);
    await config.update('sandbox', true, target);
    assert.deepEqual(readSettings().sandbox, { network: false, allowedHosts: [] });
    await config.update('sandboxAllowedHosts', ['registry.npmjs.org', '*.github.com', 42], target);
    await config.update('sandboxNetwork', true, target);
    assert.deepEqual(readSettings().sandbox, { network: true, allowedHosts: ['registry.npmjs.org', '*.github.com'] });
    await config.update('sandbox', 'yes', target);
    assert.equal(readSettings().sandbox, undefined, 'a value that is not a boolean keeps the default (off)');
  });

  it('reads smith.requestIdleTimeout in seconds and gives it to the provider', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    const target = vscode.ConfigurationTarget.Global;
    assert.equal(readSettings().idleTimeoutMs, 60_000);
    assert.equal(providerConfig(readSettings(), 'key').idleTimeoutMs, 60_000);
    await config.update('requestIdleTimeout', 2.5, target);
    assert.equal(readSettings().idleTimeoutMs, 2_500);
    assert.equal(providerConfig(readSettings(), 'key').idleTimeoutMs, 2_500);
    await config.update('requestIdleTimeout', 0, target);
    assert.equal(readSettings().idleTimeoutMs, 0, '0 turns the idle timeout off');
    await config.update('requestIdleTimeout', -5, target);
    assert.equal(readSettings().idleTimeoutMs, 60_000, 'a negative value falls back to the default');
    await config.update('requestIdleTimeout', undefined, target);
  });

  it('reads back what was written to the configuration', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    const target = vscode.ConfigurationTarget.Global;
    await config.update('provider', 'openai-compatible', target);
    await config.update('model', 'qwen3-coder', target);
    await config.update('baseUrl', 'http://127.0.0.1:11434/v1', target);
    await config.update('planModel', 'deepseek-r1', target);
    await config.update('maxIterations', 7, target);
    await config.update('autoApprove.editFiles', true, target);
    await config.update('autoApprove.safeCommands', true, target);
    await config.update('autoApprove.maxConsecutive', 5, target);
    const settings = readSettings();
    assert.equal(settings.provider, 'openai-compatible');
    assert.equal(settings.model, 'qwen3-coder');
    assert.equal(settings.baseUrl, 'http://127.0.0.1:11434/v1');
    assert.equal(settings.planModel, 'deepseek-r1');
    assert.equal(settings.actModel, '');
    assert.equal(settings.maxIterations, 7);
    assert.equal(settings.policy.editFiles, true);
    assert.equal(settings.policy.safeCommands, true);
    assert.equal(settings.policy.allCommands, false);
    assert.equal(settings.policy.maxConsecutive, 5);
  });

  it('reads checkpoints, the cost limit and permission rules; a malformed rule is left out', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    const target = vscode.ConfigurationTarget.Global;
    assert.deepEqual(readSettings().checkpoints, { enabled: true, maxFileBytes: 5 * 1024 * 1024 });
    assert.equal(readSettings().maxCost, undefined);
    await config.update('checkpoints.enabled', false, target);
    await config.update('checkpoints.maxFileSizeMb', 0.5, target);
    await config.update('maxCost', 2.5, target);
    await config.update('permissions', { allow: ['Bash(npm test)', 'Bash('], deny: ['Read(./.env)'], ask: 'not a list' }, target);
    const settings = readSettings();
    assert.deepEqual(settings.checkpoints, { enabled: false, maxFileBytes: 524288 });
    assert.equal(settings.maxCost, 2.5);
    assert.deepEqual(settings.permissions, [
      { effect: 'deny', rule: 'Read(./.env)' },
      { effect: 'allow', rule: 'Bash(npm test)' },
    ]);
  });

  it('reads the window and prices of a model the catalogue does not know', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    assert.deepEqual(readSettings().modelOverrides, {});
    await config.update('modelContextWindow', 32768, vscode.ConfigurationTarget.Global);
    await config.update('modelInputPrice', 0.5, vscode.ConfigurationTarget.Global);
    await config.update('modelOutputPrice', 1.5, vscode.ConfigurationTarget.Global);
    assert.deepEqual(readSettings().modelOverrides, { contextWindow: 32768, inputPrice: 0.5, outputPrice: 1.5 });
  });

  it('falls back to defaults for invalid values', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    await config.update('provider', 'no-such-vendor', vscode.ConfigurationTarget.Global);
    await config.update('maxIterations', -3, vscode.ConfigurationTarget.Global);
    const settings = readSettings();
    assert.equal(settings.provider, 'anthropic');
    assert.equal(settings.maxIterations, 25);
  });

  it('saves the provider choice from the panel into the user settings', async () => {
    await saveProviderSettings({ provider: 'openai', model: ' gpt-4.1-mini ', baseUrl: '' });
    const settings = readSettings();
    assert.equal(settings.provider, 'openai');
    assert.equal(settings.model, 'gpt-4.1-mini');
  });

  it('saves the tool protocol chosen in the panel to smith.toolProtocol and shows it back', async () => {
    await api.controller.saveSettings({ provider: 'openai', model: 'gpt-4.1', baseUrl: '', toolProtocol: 'native' });
    assert.equal(vscode.workspace.getConfiguration('smith').inspect('toolProtocol')?.globalValue, 'native');
    assert.equal(readSettings().toolProtocol, 'native');
    assert.equal(api.controller.snapshot().settings.toolProtocol, 'native');
    await api.controller.saveSettings({ provider: 'openai', model: 'gpt-4.1', baseUrl: '', toolProtocol: 'xml' });
    assert.equal(readSettings().toolProtocol, 'xml');
    assert.equal(api.controller.snapshot().settings.toolProtocol, 'xml');
    // Leaving it out keeps what is configured.
    await vscode.workspace.getConfiguration('smith').update('toolProtocol', 'native', vscode.ConfigurationTarget.Global);
    await saveProviderSettings({ provider: 'openai', model: 'gpt-4.1', baseUrl: '' });
    assert.equal(readSettings().toolProtocol, 'native');
  });

  it('round-trips an API key through SecretStorage', async () => {
    await api.keys.store('anthropic', 'sk-ant-roundtrip');
    assert.equal(await api.keys.get('anthropic'), 'sk-ant-roundtrip');
    assert.equal(await api.keys.has('anthropic'), true);
    await api.keys.store('anthropic', '');
    assert.equal(await api.keys.get('anthropic'), process.env.ANTHROPIC_API_KEY?.trim() || undefined);
  });

  it('keeps the key saved from the panel out of the configuration and out of the panel state', async () => {
    const secret = 'sk-panel-secret-12345';
    await api.controller.saveSettings({ provider: 'openai', model: 'gpt-4.1', baseUrl: '', apiKey: secret });
    assert.equal(await api.keys.get('openai'), secret);
    const config = vscode.workspace.getConfiguration('smith');
    for (const key of KEYS) assert.ok(!JSON.stringify(config.inspect(key)).includes(secret), `smith.${key} holds the key`);
    const state = api.controller.snapshot();
    assert.ok(!JSON.stringify(state).includes(secret), 'the panel state holds the key');
    assert.equal(state.settings.provider, 'openai');
    assert.equal(state.settings.hasApiKey, true);
  });

  it('uses the CLI environment variables when no key is stored', async () => {
    const secrets = new MemorySecrets();
    const env = { OPENAI_API_KEY: 'from-env-openai', GEMINI_API_KEY: ' from-env-gemini ', SMITH_API_KEY: '' };
    const keys = new ProviderKeys(secrets, env);
    try {
      assert.equal(await keys.get('openai'), 'from-env-openai');
      assert.equal(await keys.get('gemini'), 'from-env-gemini');
      assert.equal(await keys.get('openai-compatible'), undefined);
      assert.equal(await keys.get('anthropic'), undefined);
      await keys.store('openai', 'stored-wins');
      assert.equal(await keys.get('openai'), 'stored-wins');
      assert.equal(await secrets.get(secretKey('openai')), 'stored-wins');
      assert.equal(API_KEY_ENV_VARS['openai-compatible'], 'SMITH_API_KEY');
    } finally {
      keys.dispose();
    }
  });
});
