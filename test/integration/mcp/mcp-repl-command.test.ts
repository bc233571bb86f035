// The REPL's /mcp command against a live hub.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runMcpReplCommand } from '../../../src/cli/mcp-repl-command.js';
import { createStyle } from '../../../src/cli/style.js';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { configOf, fixtureEntry } from '../../fixtures/mcp/mcp-test-support.js';

describe('/mcp', () => {
  const style = createStyle(false);
  let hub: McpHub;
  before(async () => {
    hub = new McpHub();
    await hub.applyConfig(
      configOf({ fx: { ...fixtureEntry(), autoApprove: ['add'] }, off: { ...fixtureEntry(), disabled: true }, bad: { command: 'smith-no-such-command-xyz' } }),
    );
  });
  after(() => hub.dispose());

  test('lists servers with status, transport, counts and auto-approved tools', async () => {
    const text = await runMcpReplCommand([], hub, style);
    const lines = text.split('\n');
    assert.equal(lines[0], 'fx  connected  stdio · 8 tools, 2 resources · auto-approve: add');
    assert.equal(lines[1], 'off  disabled  stdio');
    assert.equal(lines[2], 'bad  error  stdio');
    assert.match(lines[3]!, /^ {4}Could not connect: the command was not found/);
  });

  test('tools, log, disable, enable and restart', async () => {
    assert.match(await runMcpReplCommand(['tools', 'fx'], hub, style), /^add {2}Add two numbers\.\npid {2}The process id of the server\./);
    assert.match(await runMcpReplCommand(['log', 'fx'], hub, style), /fixture fixture started \(pid \d+\)/);
    assert.match(await runMcpReplCommand(['disable', 'fx'], hub, style), /^fx {2}disabled/);
    assert.match(await runMcpReplCommand(['enable', 'fx'], hub, style), /^fx {2}connected/);
    assert.match(await runMcpReplCommand(['restart', 'fx'], hub, style), /^fx {2}connected/);
    assert.match(await runMcpReplCommand(['restart'], hub, style), /^Usage: \/mcp restart NAME$/);
    assert.match(await runMcpReplCommand(['tools', 'zzz'], hub, style), /^No MCP server named "zzz"\. Servers: fx, off, bad$/);
    assert.match(await runMcpReplCommand(['frobnicate'], hub, style), /^Unknown \/mcp subcommand "frobnicate"\./);
  });
});
