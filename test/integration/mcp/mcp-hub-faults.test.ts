// The hub when servers misbehave: crashes, hangs, bad commands, broken config entries.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { McpServerUnavailableError, McpTimeoutError } from '../../../src/core/mcp/mcp-errors.js';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { formatToolResult } from '../../../src/core/mcp/mcp-result-format.js';
import { configOf, eventually, fixtureEntry, npmServerEntry, waitForStatus } from '../../fixtures/mcp/mcp-test-support.js';
import { mergeMcpConfigFiles, parseMcpConfigText } from '../../../src/core/mcp/mcp-config.js';

describe('McpHub faults', () => {
  let hub: McpHub;
  afterEach(() => hub?.dispose());

  test('a server that crashes is reconnected with backoff, and works again', async () => {
    hub = new McpHub({ reconnectBaseDelayMs: 100, maxReconnectAttempts: 3 });
    await hub.applyConfig(configOf({ crashy: fixtureEntry('--crash-after', '3') }));
    assert.equal(hub.server('crashy')!.status, 'connected', hub.server('crashy')!.error);
    const firstPid = formatToolResult(await hub.callTool('crashy', 'pid', {})).text;
    assert.equal(formatToolResult(await hub.callTool('crashy', 'add', { a: 1, b: 1 })).text, '2');
    const statuses: string[] = [];
    hub.onChange(() =>
      statuses.push(`${hub.server('crashy')!.status}${hub.server('crashy')!.reconnect ? `#${hub.server('crashy')!.reconnect!.attempt}` : ''}`),
    );
    // The third call kills the process mid-call: the call fails naming the server, and the hub reconnects.
    await assert.rejects(hub.callTool('crashy', 'add', { a: 1, b: 2 }), (error: Error) => {
      assert.ok(error instanceof McpServerUnavailableError, String(error));
      assert.match(error.message, /MCP server "crashy" closed the connection during the call to tool add; it is reconnecting \(attempt 1 of 3\)/);
      return true;
    });
    await waitForStatus(hub, 'crashy', 'connected');
    assert.ok(statuses.includes('connecting#1'), statuses.join(','));
    const secondPid = formatToolResult(await hub.callTool('crashy', 'pid', {})).text;
    assert.notEqual(secondPid, firstPid);
    assert.ok(hub.serverLog('crashy').some((l) => l.includes('fixture: crashing on call 3')));
  });

  test('a server that keeps dying gives up after the capped attempts, and restart() tries again', async () => {
    hub = new McpHub({ reconnectBaseDelayMs: 50, maxReconnectAttempts: 2, stableAfterMs: 60_000 });
    await hub.applyConfig(configOf({ dying: fixtureEntry('--exit-after-init', '150') }));
    const attempts = new Set<number>();
    hub.onChange(() => {
      const r = hub.server('dying')?.reconnect;
      if (r) attempts.add(r.attempt);
    });
    await waitForStatus(hub, 'dying', 'error', 20_000);
    const server = hub.server('dying')!;
    assert.deepEqual([...attempts].sort(), [1, 2]);
    assert.match(server.error!, /closed the connection unexpectedly/);
    assert.match(server.error!, /fixture: exiting after init/);
    assert.match(server.error!, /Gave up after 2 reconnect attempts; restart the server to try again\./);
    const restarted = hub.restart('dying');
    await restarted;
    assert.equal(hub.server('dying')!.status, 'connected');
  });

  test('a call that hangs is cancelled at the server timeout and reported', async () => {
    hub = new McpHub();
    await hub.applyConfig(configOf({ slowpoke: { ...fixtureEntry(), timeout: 1 } }));
    const started = Date.now();
    await assert.rejects(hub.callTool('slowpoke', 'slow', {}), (error: Error) => {
      assert.ok(error instanceof McpTimeoutError, String(error));
      assert.match(error.message, /tool slow on server "slowpoke" did not answer within 1 s \(the server's timeout\), so the request was cancelled/);
      return true;
    });
    assert.ok(Date.now() - started < 5000);
    // notifications/cancelled reached the server: its handler saw the abort.
    await eventually(() => hub.serverLog('slowpoke').some((l) => l.includes('fixture: slow call cancelled')), 5000, 'the cancellation on the server');
    assert.equal(hub.server('slowpoke')!.status, 'connected');
  });

  test('the caller can cancel a call with its signal', async () => {
    hub = new McpHub();
    await hub.applyConfig(configOf({ slowpoke: fixtureEntry() }));
    const controller = new AbortController();
    const call = hub.callTool('slowpoke', 'slow', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user pressed stop')), 100);
    await assert.rejects(call, (error: Error) => !(error instanceof McpTimeoutError));
    await eventually(() => hub.serverLog('slowpoke').some((l) => l.includes('fixture: slow call cancelled')), 5000, 'the cancellation on the server');
  });

  test('one broken config entry does not stop the others', async () => {
    const text = `{
      // a comment, and trailing commas, as people write them
      "mcpServers": {
        "good": ${JSON.stringify(npmServerEntry('server-everything'))},
        "broken": { "command": "node", "args": "--not-an-array" },
        "missing": { "command": "smith-no-such-command-xyz" },
      },
    }`;
    hub = new McpHub();
    await hub.applyConfig(
      mergeMcpConfigFiles([parseMcpConfigText(text, { path: '/ws/.smith/mcp.json', scope: 'workspace', baseDir: '/ws' })], { workspaceTrust: () => 'trusted' }),
    );
    assert.equal(hub.server('good')!.status, 'connected');
    const broken = hub.server('broken')!;
    assert.equal(broken.status, 'error');
    assert.match(broken.error!, /Invalid configuration: MCP config \/ws\/\.smith\/mcp\.json: server "broken": field "args": Invalid input: expected array/);
    const missing = hub.server('missing')!;
    assert.equal(missing.status, 'error');
    assert.match(missing.error!, /Could not connect: the command was not found .*ENOENT.*is it installed and on PATH\?/);
    assert.equal(hub.configProblems().length, 1);
  });

  test('setDisabled turns a server off and on; calls to a disabled server name it and its status', async () => {
    hub = new McpHub();
    await hub.applyConfig(configOf({ fx: fixtureEntry() }));
    await hub.setDisabled('fx', true);
    assert.equal(hub.server('fx')!.status, 'disabled');
    await assert.rejects(hub.callTool('fx', 'add', { a: 1, b: 2 }), /MCP server "fx" is not available: it is disabled in the MCP settings\./);
    await assert.rejects(hub.callTool('nope', 'add', {}), /There is no MCP server named "nope"\. Configured servers: fx\./);
    await hub.setDisabled('fx', false);
    assert.equal(hub.server('fx')!.status, 'connected');
  });
});
