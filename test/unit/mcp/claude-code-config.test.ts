// Claude Code's MCP files: the user's ~/.claude.json (top-level and per-project servers) and a
// repository's .mcp.json, merged with Smith's own files; edits are copied into Smith's files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  claudeUserConfigPath,
  describeMcpConfigProblem,
  mcpConfigSources,
  mergeMcpConfigFiles,
  readMcpConfigFile,
  type McpServerConfig,
} from '../../../src/core/mcp/mcp-config.js';
import { putServerEntry, setServerDisabled } from '../../../src/core/mcp/mcp-config-edits.js';
import { mcpEditTarget } from '../../../src/core/mcp/mcp-entry-copy.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

const command = (server: McpServerConfig | undefined) => (server?.transport as { command?: string } | undefined)?.command;

function withFiles(run: (ws: TempWorkspace, sources: ReturnType<typeof mcpConfigSources>) => void): void {
  const ws = createTempWorkspace('smith-claude-config-');
  try {
    run(ws, mcpConfigSources({ storageDir: join(ws.root, 'storage'), cwd: join(ws.root, 'project'), claudeUserFile: join(ws.root, 'home', '.claude.json') }));
  } finally {
    ws.dispose();
  }
}

describe("Claude Code's MCP config files", () => {
  test("the user file's servers, its project's servers over them, Smith's global file over both", () => {
    withFiles((ws, sources) => {
      const project = join(ws.root, 'project');
      ws.write(
        'home/.claude.json',
        JSON.stringify({
          numStartups: 12,
          mcpServers: { user: { command: 'user-cmd' }, shadowed: { command: 'user-level' }, both: { command: 'claude' } },
          projects: {
            [project]: { mcpServers: { shadowed: { type: 'stdio', command: 'project-level', args: ['-x'], env: { A: '1' } } }, history: [] },
            '/somewhere/else': { mcpServers: { elsewhere: { command: 'no' } } },
          },
        }),
      );
      ws.write('storage/mcp_settings.json', JSON.stringify({ mcpServers: { both: { command: 'smith' } } }));
      const config = mergeMcpConfigFiles(sources.map(readMcpConfigFile), { workspaceTrust: () => 'trusted' });
      assert.deepEqual(config.problems, []);
      assert.deepEqual([...config.servers.keys()].sort(), ['both', 'shadowed', 'user']);
      assert.equal(command(config.servers.get('shadowed')), 'project-level');
      assert.deepEqual(config.servers.get('shadowed')!.transport, { type: 'stdio', command: 'project-level', args: ['-x'], env: { A: '1' } });
      assert.equal(config.servers.get('shadowed')!.source, join(ws.root, 'home', '.claude.json'));
      assert.equal(command(config.servers.get('both')), 'smith');
    });
  });

  test("a workspace's .mcp.json and .smith/mcp.json are one set under trust; Smith's file wins a clash", () => {
    withFiles((ws, sources) => {
      ws.write(
        'project/.mcp.json',
        JSON.stringify({ mcpServers: { claude: { type: 'http', url: 'http://localhost:1/mcp' }, clash: { command: 'from-claude' } } }),
      );
      ws.write('project/.smith/mcp.json', JSON.stringify({ mcpServers: { smith: { command: 'smith-cmd' }, clash: { command: 'from-smith' } } }));
      const files = sources.map(readMcpConfigFile);
      const untrusted = mergeMcpConfigFiles(files);
      assert.equal(untrusted.servers.size, 0, 'an untrusted .mcp.json must start nothing');
      assert.equal(untrusted.untrusted?.file, `${join(ws.root, 'project', '.mcp.json')} and ${join(ws.root, 'project', '.smith', 'mcp.json')}`);
      assert.deepEqual(untrusted.untrusted?.servers.map((s) => s.name).sort(), ['clash', 'claude', 'smith']);
      const fingerprints: string[] = [];
      const trusted = mergeMcpConfigFiles(files, {
        workspaceTrust: (workspace, fingerprint) => {
          fingerprints.push(fingerprint);
          assert.equal(workspace, join(ws.root, 'project'));
          return 'trusted';
        },
      });
      assert.equal(fingerprints.length, 1, 'both files are one question');
      assert.equal(trusted.servers.get('claude')!.transport.type, 'streamableHttp');
      assert.equal(command(trusted.servers.get('clash')), 'from-smith');
      // Changing what .mcp.json starts asks again.
      ws.write(
        'project/.mcp.json',
        JSON.stringify({ mcpServers: { claude: { type: 'http', url: 'http://localhost:2/mcp' }, clash: { command: 'from-claude' } } }),
      );
      mergeMcpConfigFiles(sources.map(readMcpConfigFile), {
        workspaceTrust: (_w, fingerprint) => {
          fingerprints.push(fingerprint);
          return 'trusted';
        },
      });
      assert.notEqual(fingerprints[1], fingerprints[0]);
    });
  });

  test('.mcp.json cannot take the name of a user-level server from either user file, nor auto-approve', () => {
    withFiles((ws, sources) => {
      ws.write('home/.claude.json', JSON.stringify({ mcpServers: { mine: { command: 'mine' } } }));
      ws.write('project/.mcp.json', JSON.stringify({ mcpServers: { mine: { command: 'theirs' }, other: { command: 'x', autoApprove: ['t'] } } }));
      const config = mergeMcpConfigFiles(sources.map(readMcpConfigFile), { workspaceTrust: () => 'trusted' });
      assert.equal(command(config.servers.get('mine')), 'mine');
      assert.deepEqual(config.servers.get('other')!.autoApprove, []);
      const lines = config.problems.map(describeMcpConfigProblem).join('\n');
      assert.match(lines, /\.mcp\.json: server "mine": ignored: a user-level server of the same name \(in .*\.claude\.json\)/);
      assert.match(lines, /\.mcp\.json: server "other": field "autoApprove": ignored/);
    });
  });

  test('${VAR} references are expanded; an unset one without a default makes that entry invalid, naming it', () => {
    withFiles((ws, sources) => {
      process.env.SMITH_TEST_MCP_TOKEN = 'tok-123';
      try {
        ws.write(
          'project/.mcp.json',
          JSON.stringify({
            mcpServers: {
              api: { type: 'http', url: 'http://localhost:${SMITH_TEST_MCP_PORT:-4567}/mcp', headers: { Authorization: 'Bearer ${SMITH_TEST_MCP_TOKEN}' } },
              broken: { command: 'x', args: ['${SMITH_TEST_MCP_UNSET_ONE}'] },
              fine: { command: 'y' },
            },
          }),
        );
        const config = mergeMcpConfigFiles(sources.map(readMcpConfigFile), { workspaceTrust: () => 'trusted' });
        assert.deepEqual(config.servers.get('api')!.transport, {
          type: 'streamableHttp',
          url: 'http://localhost:4567/mcp',
          headers: { Authorization: 'Bearer tok-123' },
        });
        assert.ok(config.servers.has('fine'), 'one bad entry must not take the others down');
        assert.match(
          describeMcpConfigProblem(config.invalid.get('broken')!),
          /server "broken": uses \$\{SMITH_TEST_MCP_UNSET_ONE\}, but that variable is not set/,
        );
      } finally {
        delete process.env.SMITH_TEST_MCP_TOKEN;
      }
    });
  });

  test('a damaged ~/.claude.json is a problem of that file; the other files still work', () => {
    withFiles((ws, sources) => {
      ws.write('home/.claude.json', '{"mcpServers": {');
      ws.write('storage/mcp_settings.json', JSON.stringify({ mcpServers: { ok: { command: 'ok' } } }));
      const config = mergeMcpConfigFiles(sources.map(readMcpConfigFile));
      assert.ok(config.servers.has('ok'));
      assert.match(config.problems.map(describeMcpConfigProblem).join('\n'), /\.claude\.json: is not valid JSON/);
    });
  });

  test('CLAUDE_CONFIG_DIR moves the user file', () => {
    assert.equal(claudeUserConfigPath({ CLAUDE_CONFIG_DIR: '/opt/claude' }), '/opt/claude/.claude.json');
    assert.match(claudeUserConfigPath({}), /\/\.claude\.json$/);
  });

  test("an edit of a Claude Code server goes to Smith's file of the same reach, as a copy written as in Claude's file", () => {
    withFiles((ws, sources) => {
      const project = join(ws.root, 'project');
      const claudeText = JSON.stringify({
        mcpServers: { u: { command: '${HOME}/u' } },
        projects: { [project]: { mcpServers: { p: { command: 'p', args: ['${X:-1}'] } } } },
      });
      ws.write('home/.claude.json', claudeText);
      ws.write('project/.mcp.json', JSON.stringify({ mcpServers: { w: { type: 'sse', url: 'http://localhost:9/sse' } } }));
      const user = mcpEditTarget(sources, 'p', join(ws.root, 'home', '.claude.json'));
      assert.equal(user.file, join(ws.root, 'storage', 'mcp_settings.json'));
      assert.deepEqual(user.copy?.entry, { command: 'p', args: ['${X:-1}'] });
      assert.deepEqual(mcpEditTarget(sources, 'u', join(ws.root, 'home', '.claude.json')).copy?.entry, { command: '${HOME}/u' });
      const workspace = mcpEditTarget(sources, 'w', join(project, '.mcp.json'));
      assert.equal(workspace.file, join(project, '.smith', 'mcp.json'));
      assert.equal(mcpEditTarget(sources, 'x', join(project, '.smith', 'mcp.json')).copy, undefined);
      assert.throws(() => mcpEditTarget(sources, 'gone', join(project, '.mcp.json')), /no longer defines a server "gone"/);
      // The copy lands in Smith's file, keeping what it had; Claude's file is untouched.
      const before = '{\n  // mine\n  "mcpServers": {\n    "keep": { "command": "k" }\n  }\n}\n';
      const after = setServerDisabled(putServerEntry(before, 'p', user.copy!.entry), 'p', true);
      assert.match(after, /\/\/ mine/);
      const parsed = JSON.parse(after.replace('// mine', '')) as { mcpServers: Record<string, unknown> };
      assert.deepEqual(parsed.mcpServers, { keep: { command: 'k' }, p: { command: 'p', args: ['${X:-1}'], disabled: true } });
      assert.deepEqual(JSON.parse(putServerEntry('', 'w', workspace.copy!.entry)), { mcpServers: { w: { type: 'sse', url: 'http://localhost:9/sse' } } });
      assert.equal(readFileSync(join(ws.root, 'home', '.claude.json'), 'utf8'), claudeText);
      // Read back, the copy wins over the original.
      ws.write('storage/mcp_settings.json', after.replace('// mine', ''));
      const config = mergeMcpConfigFiles(sources.map(readMcpConfigFile));
      assert.equal(config.servers.get('p')!.source, join(ws.root, 'storage', 'mcp_settings.json'));
      assert.equal(config.servers.get('p')!.disabled, true);
    });
  });
});
