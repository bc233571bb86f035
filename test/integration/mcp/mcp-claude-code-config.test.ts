// Claude Code's MCP files through the built CLI, with real npm servers: the user's ~/.claude.json
// (its project's entry) and the repository's .mcp.json, with ${VAR} expansion, .mcp.json held to
// workspace trust exactly as .smith/mcp.json is.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../helpers/cli-runner.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { npmServerEntry } from '../../fixtures/mcp/mcp-test-support.js';

const complete = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe("smith CLI with Claude Code's MCP files", () => {
  const fx = useAgentFixture();
  let claudeDir: string;
  beforeEach(() => {
    claudeDir = mkdtempSync(join(tmpdir(), 'smith-claude-dir-'));
  });
  afterEach(() => {
    rmSync(claudeDir, { recursive: true, force: true });
  });
  const args = (...extra: string[]) => [...fx.cliArgs(), '--yes', ...extra];
  const env = () => ({ CLAUDE_CONFIG_DIR: claudeDir, SMITH_TEST_MEMORY_DIR: fx.ws.root });

  test("the project's server in ~/.claude.json runs with its ${VAR} expanded, and the model calls it", async () => {
    const memory = npmServerEntry('server-memory');
    writeFileSync(
      join(claudeDir, '.claude.json'),
      JSON.stringify({
        mcpServers: { memory: { command: 'not-this-one' } },
        projects: {
          [fx.ws.root]: {
            mcpServers: { memory: { type: 'stdio', ...memory, env: { MEMORY_FILE_PATH: '${SMITH_TEST_MEMORY_DIR}/${MEMORY_NAME:-graph}.jsonl' } } },
          },
        },
      }),
    );
    fx.server.enqueue(
      {
        text: '<use_mcp_tool>\n<server_name>memory</server_name>\n<tool_name>create_entities</tool_name>\n<arguments>{"entities": [{"name": "smith", "entityType": "agent", "observations": ["reads .claude.json"]}]}</arguments>\n</use_mcp_tool>',
      },
      complete,
    );
    const run = await runCli({ args: args('--auto-approve', 'mcp', 'Remember'), env: env(), timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(String(fx.server.requests[0]!.body.messages[0].content), /## memory[\s\S]*create_entities/);
    const graph = join(fx.ws.root, 'graph.jsonl');
    assert.ok(existsSync(graph), `the memory server did not write ${graph}: ${run.stderr}`);
    assert.match(readFileSync(graph, 'utf8'), /reads \.claude\.json/);
  });

  test('.mcp.json starts nothing without trust and names itself; with --trust-workspace its server runs', async () => {
    fx.ws.write('.mcp.json', JSON.stringify({ mcpServers: { everything: { type: 'stdio', ...npmServerEntry('server-everything') } } }));
    fx.server.enqueue(complete);
    const refused = await runCli({ args: args('Do it'), env: env(), timeoutMs: 60_000 });
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(refused.stderr, /The MCP servers of .*\/\.mcp\.json were not started:\n {2}everything: /);
    assert.doesNotMatch(String(fx.server.requests[0]!.body.messages[0].content), /## everything/);
    fx.server.enqueue(complete);
    const trusted = await runCli({ args: args('--trust-workspace', 'Do it'), env: env(), timeoutMs: 60_000 });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.match(String(fx.server.requests[1]!.body.messages[0].content), /## everything[\s\S]*- echo: /);
  });

  test('an unset variable without a default is a warning naming the server and the variable; the other servers work', async () => {
    fx.ws.write(
      '.mcp.json',
      JSON.stringify({
        mcpServers: { broken: { type: 'http', url: '${SMITH_TEST_UNSET_URL}' }, everything: { type: 'stdio', ...npmServerEntry('server-everything') } },
      }),
    );
    fx.server.enqueue(complete);
    const run = await runCli({ args: args('--trust-workspace', 'Do it'), env: env(), timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\.mcp\.json: server "broken": uses \$\{SMITH_TEST_UNSET_URL\}, but that variable is not set/);
    assert.match(String(fx.server.requests[0]!.body.messages[0].content), /## everything/);
  });
});
