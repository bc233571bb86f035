// Trusting a workspace's .smith/settings.json: its allow rules and hooks wait for the user's answer,
// which is asked once per version of the file and remembered (yes and no alike).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { WorkspaceTrust } from '../../../src/core/mcp/workspace-trust.js';
import { loadPermissionSettings } from '../../../src/core/permissions/settings-files.js';
import { askSettingsTrust } from '../../../src/core/permissions/settings-trust.js';

describe('trusting a workspace settings file', () => {
  let storageDir: string;
  let workspace: string;
  beforeEach(() => {
    storageDir = mkdtempSync(join(tmpdir(), 'smith-trust-storage-'));
    workspace = mkdtempSync(join(tmpdir(), 'smith-trust-ws-'));
    mkdirSync(join(workspace, '.smith'));
  });
  afterEach(() => {
    rmSync(storageDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });
  const writeFile = (allow: string[]) =>
    writeFileSync(
      join(workspace, '.smith/settings.json'),
      JSON.stringify({
        permissions: { allow, deny: ['Read(./.env)'] },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh' }] }] },
      }),
    );
  const load = () => loadPermissionSettings({ storageDir, workspaceRoot: workspace, trust: new WorkspaceTrust({ storageDir }).check });

  test('the question names every allow rule and hook; yes applies them and is not asked again', async () => {
    writeFile(['Bash(npm test)']);
    const before = load();
    assert.deepEqual(
      before.rules.map((r) => `${r.effect} ${r.rule}`),
      ['deny Read(./.env)'],
      'deny and ask rules apply at once',
    );
    assert.deepEqual(before.hooks, {});
    assert.equal(before.heldBack?.decision, 'unknown');
    const asked: string[][] = [];
    const answer = await askSettingsTrust(before.heldBack, storageDir, async (_held, lines) => {
      asked.push([...lines]);
      return true;
    });
    assert.equal(answer, true);
    assert.deepEqual(asked, [['allow Bash(npm test)', 'hook PreToolUse (Bash): ./check.sh']]);
    const after = load();
    assert.equal(after.heldBack, undefined);
    assert.deepEqual(after.rules.map((r) => `${r.effect} ${r.rule}`).sort(), ['allow Bash(npm test)', 'deny Read(./.env)']);
    assert.equal(after.hooks.PreToolUse?.[0]?.hooks[0]?.command, './check.sh');
    assert.equal(await askSettingsTrust(after.heldBack, storageDir, async () => assert.fail('asked again')), undefined);

    // A changed file asks again.
    writeFile(['Bash(npm test)', 'Bash(curl:*)']);
    assert.equal(load().heldBack?.decision, 'unknown');
  });

  test('no is remembered and not asked again; a dismissed question is asked next time', async () => {
    writeFile(['Bash(rm:*)']);
    assert.equal(await askSettingsTrust(load().heldBack, storageDir, async () => undefined), undefined);
    assert.equal(load().heldBack?.decision, 'unknown', 'a dismissed question is not an answer');
    assert.equal(await askSettingsTrust(load().heldBack, storageDir, async () => false), false);
    const denied = load();
    assert.equal(denied.heldBack?.decision, 'denied');
    assert.ok(!denied.rules.some((r) => r.effect === 'allow'));
    assert.equal(await askSettingsTrust(denied.heldBack, storageDir, async () => assert.fail('asked again')), undefined);
  });
});
