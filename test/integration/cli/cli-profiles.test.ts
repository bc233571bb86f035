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
    const run = await runCli({ args: ['--cwd', fx.ws.root, '--storage', fx.storage, '--output', 'json', 'Say done'], env: { SMITH_PROFILE: 'scripted', SCRIPTED_API_KEY: 'sk-scripted-profile-key' } });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, 'done by profile');
    const request = fx.server.requestAt(0);
    assert.equal(request.body.model, 'scripted-model');
    assert.equal(request.headers.authorization, 'Bearer sk-scripted-profile-key');
  });

  test('--profile NAME picks it too, and a flag wins over its field', async () => {
    writeProfiles();
    fx.server.enqueue({ text: '<attempt_completion><result>flag</result></attempt_completion>' });
    const run = await runCli({ args: ['--profile', 'scripted', '--model', 'other-model', '--cwd', fx.ws.root, '--storage', fx.storage, '--output', 'json', 'Go'] });
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
});
