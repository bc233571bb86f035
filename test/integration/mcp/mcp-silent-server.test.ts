// A server that never answers `initialize` holds a task back no longer than its `timeout`: servers
// connect in the background, a request waits for one at most that long, then goes on without it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { configOf, fixtureEntry, REPO_ROOT, waitForStatus, writeConfig } from '../../fixtures/mcp/mcp-test-support.js';
import { systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { eventually, isPidAlive } from '../../helpers/pid-liveness.js';

const SILENT = join(REPO_ROOT, 'test/fixtures/mcp/silent-server.mjs');
const silentEntry = (pidFile: string, timeout: number) => ({ command: process.execPath, args: [SILENT, pidFile], timeout });
const done = { text: '<attempt_completion>\n<result>Done without it.</result>\n</attempt_completion>' };

describe('an MCP server that never answers initialize', () => {
  const fx = useAgentFixture();

  test('the CLI task waits for it at most its timeout, goes on without it, tells the model and the user, and ends it at exit', async () => {
    const pidFile = join(fx.storage, 'silent.pid');
    const configFile = join(fx.storage, 'mcp.json');
    writeConfig(configFile, { silent: silentEntry(pidFile, 2) });
    fx.server.enqueue(done);
    // The handshake itself may take up to a minute (a server's first start can be slow); the task does not wait for it.
    const run = await runCli({ args: [...fx.cliArgs(), '--mcp-config', configFile, '--yes', 'Do it'], stdin: '', timeoutMs: 40_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'Done without it.\n');
    assert.match(run.stderr, /MCP server "silent" did not connect within 2 s \(its timeout\); the task goes on without it while it keeps trying\./);
    assert.match(systemPromptOf(fx.server.requestAt(0)), /Unavailable servers[^\n]*\n- silent: connecting/);
    assert.ok(existsSync(pidFile), 'the server was started');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(await eventually(() => !isPidAlive(pid)), `the silent server ${pid} outlived smith`);
  });

  test('the hub: whenReady resolves at the timeout while the server still connects; a server that answers is waited for; dispose ends the attempt', async () => {
    const pidFile = join(fx.storage, 'hub-silent.pid');
    const hub = new McpHub();
    try {
      void hub.applyConfig(configOf({ silent: silentEntry(pidFile, 1), fx: fixtureEntry() }));
      await hub.whenReady();
      assert.equal(hub.server('silent')?.status, 'connecting');
      assert.deepEqual(hub.stillConnecting(), ['silent']);
      // The answering server was waited for (it is not reported as still connecting).
      await waitForStatus(hub, 'fx', 'connected');
      assert.ok(await eventually(() => existsSync(pidFile)));
    } finally {
      await hub.dispose();
    }
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(await eventually(() => !isPidAlive(pid)), `the silent server ${pid} outlived the hub`);
  });
});
