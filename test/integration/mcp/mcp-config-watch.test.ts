// Editing the config files while Smith runs: only what changed is restarted.
import assert from 'node:assert/strict';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startCliMcp, type CliMcp } from '../../../src/cli/mcp-setup.js';
import { formatToolResult } from '../../../src/core/mcp/mcp-result-format.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { fixtureEntry, waitForHub, waitForStatus, writeConfig } from '../../fixtures/mcp/mcp-test-support.js';

describe('watching the MCP config files', () => {
  let ws: TempWorkspace;
  let storage: string;
  let mcp: CliMcp;
  const warnings: string[] = [];
  const globalFile = () => join(storage, 'mcp_settings.json');
  const workspaceFile = () => join(ws.root, '.smith', 'mcp.json');
  const pid = async (server: string) => formatToolResult(await mcp.hub.callTool(server, 'pid', {})).text;

  before(async () => {
    ws = createTempWorkspace('smith-mcp-watch-');
    storage = mkdtempSync(join(tmpdir(), 'smith-mcp-storage-'));
    writeConfig(globalFile(), { alpha: fixtureEntry('--name', 'alpha') });
    // The workspace has no .smith folder yet: the watcher must notice it being created.
    mcp = await startCliMcp({ cwd: ws.root, storageDir: storage, trustWorkspace: true, warn: (m) => warnings.push(m) });
    // Servers connect in the background; what a task's first request waits for.
    await mcp.wiring.ready(new AbortController().signal);
  });
  after(async () => {
    await mcp.dispose();
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  test('starts with the global server', () => {
    assert.deepEqual(
      mcp.hub.servers().map((s) => [s.name, s.status]),
      [['alpha', 'connected']],
    );
  });

  test('a workspace file created later (with its folder) adds its server', async () => {
    writeConfig(workspaceFile(), { beta: fixtureEntry('--name', 'beta') });
    await waitForStatus(mcp.hub, 'beta', 'connected');
  });

  test('changing only autoApprove and timeout restarts nothing and applies live', async () => {
    const [alphaPid, betaPid] = [await pid('alpha'), await pid('beta')];
    const statuses: string[] = [];
    const stop = mcp.hub.onChange(() => statuses.push(...mcp.hub.servers().map((s) => `${s.name}:${s.status}`)));
    // autoApprove is a user-level setting (a workspace file cannot grant it), so the global file changes.
    writeConfig(globalFile(), { alpha: { ...fixtureEntry('--name', 'alpha'), autoApprove: ['add'], timeout: 5 } });
    writeConfig(workspaceFile(), { beta: { ...fixtureEntry('--name', 'beta'), timeout: 5 } });
    await waitForHub(
      mcp.hub,
      () => mcp.hub.isAutoApproved('alpha', 'add') && mcp.hub.server('beta')!.config!.timeoutSeconds === 5,
      5000,
      'autoApprove and timeout to apply',
    );
    stop();
    assert.equal(mcp.hub.server('alpha')!.config!.timeoutSeconds, 5);
    assert.equal(await pid('beta'), betaPid);
    assert.equal(await pid('alpha'), alphaPid);
    assert.ok(!statuses.some((s) => s.endsWith(':connecting')), statuses.join(' '));
  });

  test("changing a server's args restarts only that server", async () => {
    const [alphaPid, betaPid] = [await pid('alpha'), await pid('beta')];
    writeConfig(workspaceFile(), { beta: { ...fixtureEntry('--name', 'beta2'), timeout: 5 } });
    await waitForHub(mcp.hub, () => mcp.hub.server('beta')?.serverInfo?.name === 'beta2', 10_000, 'beta to restart');
    assert.equal(mcp.hub.server('beta')!.status, 'connected');
    assert.notEqual(await pid('beta'), betaPid);
    assert.equal(await pid('alpha'), alphaPid);
  });

  test('a file replaced by rename (as vim and JetBrains save) is picked up', async () => {
    const temp = join(storage, 'mcp_settings.json.tmp');
    writeFileSync(temp, JSON.stringify({ mcpServers: { alpha: fixtureEntry('--name', 'alpha'), gamma: fixtureEntry('--name', 'gamma') } }));
    renameSync(temp, globalFile());
    await waitForStatus(mcp.hub, 'gamma', 'connected');
  });

  test('a removed server is disconnected', async () => {
    writeConfig(globalFile(), { gamma: fixtureEntry('--name', 'gamma') });
    await waitForHub(mcp.hub, () => mcp.hub.server('alpha') === undefined, 5000, 'alpha to go away');
    assert.deepEqual(
      mcp.hub
        .servers()
        .map((s) => s.name)
        .sort(),
      ['beta', 'gamma'],
    );
  });

  test('a file saved half-written keeps its servers running and says what is wrong', async () => {
    const betaPid = await pid('beta');
    writeFileSync(workspaceFile(), '{ "mcpServers": { "beta": ');
    await waitForHub(mcp.hub, () => mcp.hub.configProblems().length > 0, 5000, 'the parse problem');
    const [problem] = mcp.hub.configProblems();
    assert.equal(problem!.file, workspaceFile());
    assert.match(problem!.message, /is not valid JSON: .* at line 1, column \d+ \(its servers keep their last valid settings until it is fixed\)/);
    assert.equal(mcp.hub.server('beta')!.status, 'connected');
    assert.equal(await pid('beta'), betaPid);
    assert.ok(
      warnings.some((w) => w.includes('is not valid JSON')),
      warnings.join('\n'),
    );
  });
});
