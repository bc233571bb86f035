// End to end through the built CLI: `smith --mcp-config FILE` and `smith mcp-serve`.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI_PATH, runCli } from '../../helpers/cli-runner.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { fixtureEntry, npmServerEntry, writeConfig } from '../../fixtures/mcp/mcp-test-support.js';

describe('smith CLI with MCP servers', () => {
  const fx = useAgentFixture();

  test('--mcp-config FILE: the model calls an MCP tool and the result reaches its next request', async () => {
    const configFile = join(fx.ws.root, 'extra-mcp.json');
    writeConfig(configFile, { everything: npmServerEntry('server-everything') });
    fx.server.enqueue(
      {
        text: '<use_mcp_tool>\n<server_name>everything</server_name>\n<tool_name>echo</tool_name>\n<arguments>{"message": "via the CLI"}</arguments>\n</use_mcp_tool>',
      },
      (request) => {
        assert.match(lastUserText(request), /Echo: via the CLI/);
        return { text: '<attempt_completion>\n<result>Echoed.</result>\n</attempt_completion>' };
      },
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--mcp-config', configFile, '--auto-approve', 'mcp', 'Echo through MCP'], timeoutMs: 30_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'Echoed.\n');
    assert.match(fx.server.requests[0]!.body.messages[0].content, /# MCP servers[\s\S]*## everything[\s\S]*- echo: Echoes back the input string/);
  });

  test('the workspace .smith/mcp.json is read when trusted; a broken entry is a warning and the rest works', async () => {
    fx.ws.write('.smith/mcp.json', JSON.stringify({ mcpServers: { fx: fixtureEntry(), broken: { command: 42 } } }));
    fx.server.enqueue(
      { text: '<use_mcp_tool>\n<server_name>fx</server_name>\n<tool_name>add</tool_name>\n<arguments>{"a": 20, "b": 22}</arguments>\n</use_mcp_tool>' },
      (request) => {
        assert.match(lastUserText(request), /\] Result:\n42/);
        return { text: '<attempt_completion>\n<result>42</result>\n</attempt_completion>' };
      },
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--trust-workspace', 'Add numbers'], timeoutMs: 30_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /MCP config .*\.smith\/mcp\.json: server "broken": field "command": Invalid input: expected string, received number/);
  });

  test('--mcp-config with a missing file is a usage error', async () => {
    const run = await runCli({ args: [...fx.cliArgs(), '--mcp-config', 'nope.json', 'task'] });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--mcp-config file not found: nope\.json/);
  });
});

describe('node dist/cli.js mcp-serve', () => {
  test('serves the workspace tools over stdio and refuses paths outside the workspace', async () => {
    const ws = createTempWorkspace('smith-mcp-serve-cli-');
    ws.write('a.txt', 'alpha\n');
    const client = new Client({ name: 'smith-test', version: '1.0.0' });
    try {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI_PATH, 'mcp-serve', '--cwd', ws.root],
          stderr: 'pipe',
          env: { PATH: process.env.PATH ?? '', HOME: ws.root },
        }),
      );
      const read = (await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } })) as CallToolResult;
      assert.equal((read.content[0] as { text: string }).text, '1 | alpha');
      const outside = (await client.callTool({ name: 'read_file', arguments: { path: '/etc/hostname' } })) as CallToolResult;
      assert.equal(outside.isError, true);
    } finally {
      await client.close();
      ws.dispose();
    }
  });
});
