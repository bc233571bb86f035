import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../../helpers/cli-runner.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';

describe('smith with an API profile', () => {
  const fx = useAgentFixture();

  function writeProfiles(): void {
    const profiles = {
      scripted: { provider: 'openai-compatible', model: 'scripted-model', baseUrl: fx.server.openAiBaseUrl, apiKeyEnv: 'SCRIPTED_API_KEY' },
      broken: { provider: 'nowhere' },
    };
    writeFileSync(join(fx.storage, 'settings.json'), JSON.stringify({ profiles }));
  }

  test('a task runs with the provider, model and address of the profile, and its own key variable', async () => {
    writeProfiles();
    fx.server.enqueue({ text: '<attempt_completion><result>done by profile</result></attempt_completion>' });
    const run = await runCli({
      args: ['--cwd', fx.ws.root, '--storage', fx.storage, '--output', 'json', 'Say done'],
      env: { SMITH_PROFILE: 'scripted', SCRIPTED_API_KEY: 'sk-scripted-profile-key' },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, 'done by profile');
    const request = fx.server.requestAt(0);
    assert.equal(request.body.model, 'scripted-model');
    assert.equal(request.headers.authorization, 'Bearer sk-scripted-profile-key');
  });

  test('--profile NAME picks it too, and a flag wins over its field', async () => {
    writeProfiles();
    fx.server.enqueue({ text: '<attempt_completion><result>flag</result></attempt_completion>' });
    const run = await runCli({
      args: ['--profile', 'scripted', '--model', 'other-model', '--cwd', fx.ws.root, '--storage', fx.storage, '--output', 'json', 'Go'],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.server.requestAt(0).body.model, 'other-model');
  });

  test("--list-models lists the profile's server; an unknown name is a usage error that names the profiles and what is wrong with the others", async () => {
    writeProfiles();
    const listed = await runCli({ args: ['--storage', fx.storage, '--list-models', '--output', 'json'], env: { SMITH_PROFILE: 'scripted' } });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout), [{ id: 'scripted-model' }]);
    const unknown = await runCli({ args: ['--storage', fx.storage, 'hi'], env: { SMITH_PROFILE: 'work' } });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no API profile named "work"; the profiles are scripted \(.*settings\.json: profile "broken": provider/);
  });

  test('--plan-profile: Plan mode runs with that profile (its provider, model and key); Act mode keeps the main settings', async () => {
    writeProfiles();
    const main = [
      '--provider',
      'openai-compatible',
      '--model',
      'main-model',
      '--base-url',
      fx.server.openAiBaseUrl,
      '--cwd',
      fx.ws.root,
      '--storage',
      fx.storage,
      '--output',
      'json',
    ];
    const env = { SCRIPTED_API_KEY: 'sk-planner-key', SMITH_API_KEY: 'sk-main-key' };
    fx.server.enqueue({ text: '<plan_mode_respond><response>The plan: one step.</response></plan_mode_respond>' });
    const plan = await runCli({ args: [...main, '--mode', 'plan', '--plan-profile', 'scripted', 'Plan it'], env });
    assert.equal(plan.code, 0, plan.stderr);
    assert.equal(fx.server.requestAt(0).body.model, 'scripted-model');
    assert.equal(fx.server.requestAt(0).headers.authorization, 'Bearer sk-planner-key');
    fx.server.enqueue({ text: '<attempt_completion><result>acted</result></attempt_completion>' });
    const act = await runCli({ args: [...main, '--plan-profile', 'scripted', 'Do it'], env });
    assert.equal(act.code, 0, act.stderr);
    assert.equal(fx.server.requestAt(1).body.model, 'main-model');
    assert.equal(fx.server.requestAt(1).headers.authorization, 'Bearer sk-main-key');
  });

  test('"actProfile" in the settings file, with the profile\'s own Act model; an unknown mode profile is a usage error', async () => {
    const profiles = { cheap: { provider: 'openai-compatible', model: 'cheap-model', actModel: 'cheap-act-model', baseUrl: fx.server.openAiBaseUrl } };
    writeFileSync(join(fx.storage, 'settings.json'), JSON.stringify({ profiles, actProfile: 'cheap' }));
    fx.server.enqueue({ text: '<attempt_completion><result>cheaply</result></attempt_completion>' });
    const run = await runCli({
      args: [
        '--provider',
        'openai-compatible',
        '--model',
        'main-model',
        '--base-url',
        fx.server.openAiBaseUrl,
        '--cwd',
        fx.ws.root,
        '--storage',
        fx.storage,
        '--output',
        'json',
        'Go',
      ],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.server.requestAt(0).body.model, 'cheap-act-model');
    const unknown = await runCli({
      args: [
        '--provider',
        'openai-compatible',
        '--model',
        'm',
        '--base-url',
        fx.server.openAiBaseUrl,
        '--storage',
        fx.storage,
        '--plan-profile',
        'thinker',
        'hi',
      ],
    });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no API profile named "thinker"; the profiles are cheap/);
  });

  test("a mode's profile without its key says it is that profile", async () => {
    writeFileSync(join(fx.storage, 'settings.json'), JSON.stringify({ profiles: { thinker: { provider: 'anthropic', model: 'claude-opus-4-5' } } }));
    const run = await runCli({
      args: [
        '--provider',
        'openai-compatible',
        '--model',
        'm',
        '--base-url',
        fx.server.openAiBaseUrl,
        '--cwd',
        fx.ws.root,
        '--storage',
        fx.storage,
        '--plan-profile',
        'thinker',
        'hi',
      ],
      env: { ANTHROPIC_API_KEY: '' },
    });
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /Plan mode's API profile: No API key for Anthropic\. Set the ANTHROPIC_API_KEY environment variable/);
    assert.equal(fx.server.requests.length, 0);
  });
});
