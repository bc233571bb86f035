// API profiles in the real workbench: saved from the Settings form into smith.profiles, a profile per
// mode that a running task switches to when the mode changes, and the cloud accounts' project and
// region settings. Real engine, real settings and SecretStorage, scripted LLM server.
import * as assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { matchingProfile } from '../../../../src/shared/api-profiles';
import { modeProviderConfigs } from '../../../../src/host/vscode/mode-profiles';
import { providerConfig, readSettings } from '../../../../src/host/vscode/settings';
import type { SmithApi } from '../../../../src/host/vscode/smith-api';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../fixtures/scripted-llm-server';
import { until } from '../../../helpers/until';

const SETTINGS = [
  'provider',
  'baseUrl',
  'model',
  'profiles',
  'planProfile',
  'actProfile',
  'planModel',
  'actModel',
  'vertex.project',
  'vertex.region',
  'bedrock.region',
];

async function resetSettings(): Promise<void> {
  const config = vscode.workspace.getConfiguration('smith');
  for (const key of SETTINGS) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
}

describe('API profiles', function () {
  this.timeout(90_000);
  let api: SmithApi;
  let server: ScriptedLlmServer;

  before(async () => {
    api = await vscode.extensions.getExtension<SmithApi>('smith.smith')!.activate();
    server = await startScriptedLlmServer();
    await resetSettings();
  });

  afterEach(async () => {
    // Leaving a task stops nothing: each test's tasks are stopped and closed, so none answers the next test's model replies or approvals.
    await api.controller.closeAllTasks();
    await resetSettings();
    await api.keys.store('openai-compatible', '');
    await api.keys.store('anthropic', '');
  });

  after(async () => {
    await server.close();
  });

  it('Save as profile keeps the form in smith.profiles; the Settings view lists it and says it is in use', async () => {
    await api.controller.saveSettings({
      provider: 'openai-compatible',
      model: 'planner-model',
      baseUrl: server.openAiBaseUrl,
      toolProtocol: 'xml',
      saveAsProfile: 'planner',
    });
    const stored = vscode.workspace.getConfiguration('smith').inspect<Record<string, unknown>>('profiles')?.globalValue;
    assert.deepEqual(stored, { planner: { provider: 'openai-compatible', model: 'planner-model', baseUrl: server.openAiBaseUrl } });
    const view = api.controller.snapshot().settings;
    assert.deepEqual(view.profiles?.planner, { provider: 'openai-compatible', model: 'planner-model', baseUrl: server.openAiBaseUrl });
    assert.equal(matchingProfile(view.profiles ?? {}, view), 'planner');
    // A second profile is added beside the first, not in its place.
    await api.controller.saveSettings({ provider: 'anthropic', model: 'claude-opus-4-1', baseUrl: '', saveAsProfile: 'thinker' });
    assert.deepEqual(Object.keys(vscode.workspace.getConfiguration('smith').get<object>('profiles') ?? {}).sort(), ['planner', 'thinker']);
  });

  it("a Plan profile: the task plans with that profile's model and key, and acts with the main settings once switched", async () => {
    await api.controller.saveSettings({ provider: 'openai-compatible', model: 'planner-model', baseUrl: server.openAiBaseUrl, saveAsProfile: 'planner' });
    await api.controller.saveSettings({
      provider: 'openai-compatible',
      model: 'main-model',
      baseUrl: server.openAiBaseUrl,
      planProfile: 'planner',
      apiKey: 'sk-main',
    });
    assert.equal(readSettings().planProfile, 'planner');
    assert.equal(api.controller.snapshot().settings.planProfile, 'planner');
    const before = server.requests.length;
    server.enqueue(
      { text: '<plan_mode_respond>\n<response>Plan: write one file.</response>\n</plan_mode_respond>' },
      { text: '<attempt_completion>\n<result>acted</result>\n</attempt_completion>' },
    );
    api.controller.setMode('plan');
    try {
      await api.controller.newTask('Plan something');
      await until(() => server.requests.length > before && /Plan: write one file/.test(JSON.stringify(api.controller.snapshot().task ?? {})), 'the plan');
      api.controller.setMode('act');
      await api.controller.sendMessage('Go ahead');
      await until(() => api.controller.snapshot().task?.status === 'completed', 'the completed task');
    } finally {
      api.controller.setMode('act');
    }
    const models = server.requests.slice(before).map((request) => (request.body as { model?: string }).model);
    assert.deepEqual(models, ['planner-model', 'main-model']);
  });

  it("a mode profile of another provider gets that provider's key; a name with no profile is reported and the mode keeps the main settings", async () => {
    await vscode.workspace
      .getConfiguration('smith')
      .update('profiles', { thinker: { provider: 'anthropic', model: 'claude-opus-4-1', planModel: 'claude-opus-4-5' } }, vscode.ConfigurationTarget.Global);
    await api.keys.store('anthropic', 'sk-ant-thinker');
    await api.controller.saveSettings({
      provider: 'openai-compatible',
      model: 'main-model',
      baseUrl: server.openAiBaseUrl,
      planProfile: 'thinker',
      actProfile: 'gone',
    });
    const { configs, problems } = await modeProviderConfigs(readSettings(), api.keys);
    assert.deepEqual([configs.plan?.provider, configs.plan?.model, configs.plan?.apiKey], ['anthropic', 'claude-opus-4-5', 'sk-ant-thinker']);
    assert.equal(configs.act, undefined);
    assert.deepEqual(problems, ['smith.actProfile names the profile "gone", which is not in smith.profiles (thinker); Act mode uses the main settings.']);
    // Without that provider's key the task does not start, and the message names the mode's profile.
    await api.keys.store('anthropic', '');
    await assert.rejects(api.controller.newTask('Plan it'), /Plan mode's API profile: No API key for Anthropic/);
  });

  it('the Vertex project and region and the Bedrock region reach the provider of that cloud only', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    const target = vscode.ConfigurationTarget.Global;
    await config.update('vertex.project', 'my-project', target);
    await config.update('vertex.region', 'europe-west1', target);
    await config.update('bedrock.region', 'eu-central-1', target);
    await config.update('provider', 'vertex-anthropic', target);
    assert.deepEqual([providerConfig(readSettings(), undefined).project, providerConfig(readSettings(), undefined).location], ['my-project', 'europe-west1']);
    await config.update('provider', 'vertex-gemini', target);
    assert.equal(providerConfig(readSettings(), undefined).location, 'europe-west1');
    await config.update('provider', 'bedrock', target);
    const bedrock = providerConfig(readSettings(), undefined);
    assert.deepEqual([bedrock.project, bedrock.location], [undefined, 'eu-central-1']);
    await config.update('provider', 'openai', target);
    const openai = providerConfig(readSettings(), 'k');
    assert.deepEqual([openai.project, openai.location], [undefined, undefined]);
  });
});
