import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  describeMcpConfigProblem,
  mcpConfigSources,
  mergeMcpConfigFiles,
  parseMcpConfigText,
  readMcpConfigFile,
  type McpConfigSource,
  type McpServerConfig,
} from '../../../src/core/mcp/mcp-config.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';

const source: McpConfigSource = { path: '/ws/.smith/mcp.json', scope: 'workspace', baseDir: '/ws' };
const parse = (text: string) => {
  const file = parseMcpConfigText(text, source);
  return mergeMcpConfigFiles([file], { workspaceTrust: () => 'trusted' });
};
const problemOf = (text: string) => parse(text).problems.map(describeMcpConfigProblem);

describe('MCP config', () => {
  test('reads stdio and remote entries with defaults, allowing comments and trailing commas', () => {
    const config = parse(`{
      // Claude Desktop / Cline format
      "mcpServers": {
        "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "env": { "PORT": 3000, "DEBUG": true }, "cwd": "tools", },
        "remote": { "type": "streamableHttp", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer x" }, "timeout": 10 },
        "legacy": { "type": "sse", "url": "http://localhost:8080/sse", "disabled": true },
        "vscode-style": { "type": "http", "url": "http://localhost:9000/mcp" },
        "bare-url": { "url": "http://localhost:9001/mcp" },
      },
    }`);
    assert.deepEqual(config.problems, []);
    assert.deepEqual(config.servers.get('files'), {
      name: 'files',
      source: '/ws/.smith/mcp.json',
      transport: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
        env: { PORT: '3000', DEBUG: 'true' },
        cwd: '/ws/tools',
      },
      disabled: false,
      autoApprove: [],
      timeoutSeconds: 60,
    } satisfies McpServerConfig);
    assert.deepEqual(config.servers.get('remote')!.transport, {
      type: 'streamableHttp',
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer x' },
    });
    assert.equal(config.servers.get('remote')!.timeoutSeconds, 10);
    assert.equal(config.servers.get('legacy')!.transport.type, 'sse');
    assert.equal(config.servers.get('legacy')!.disabled, true);
    assert.equal(config.servers.get('vscode-style')!.transport.type, 'streamableHttp');
    assert.equal(config.servers.get('bare-url')!.transport.type, 'streamableHttp');
  });

  test("a user-level file keeps autoApprove and Roo Code's alwaysAllow", () => {
    const global: McpConfigSource = { path: '/storage/mcp_settings.json', scope: 'global', baseDir: '/storage' };
    const config = mergeMcpConfigFiles([
      parseMcpConfigText(
        '{"mcpServers": {"remote": {"url": "https://example.com/mcp", "autoApprove": ["search"]}, "bare-url": {"url": "http://localhost:9001/mcp", "alwaysAllow": ["read"]}}}',
        global,
      ),
    ]);
    assert.deepEqual(config.problems, []);
    assert.deepEqual(config.servers.get('remote')!.autoApprove, ['search']);
    assert.deepEqual(config.servers.get('bare-url')!.autoApprove, ['read']);
  });

  test('invalid JSON names the file, line and column', () => {
    assert.deepEqual(problemOf('{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}'), [
      'MCP config /ws/.smith/mcp.json: is not valid JSON: CommaExpected at line 4, column 5',
    ]);
    assert.deepEqual(problemOf('[1]'), ['MCP config /ws/.smith/mcp.json: must contain a JSON object like {"mcpServers": {...}}']);
    assert.deepEqual(problemOf('{"mcpServers": []}'), [
      'MCP config /ws/.smith/mcp.json: field "mcpServers" must be an object mapping server names to their settings',
    ]);
  });

  test('an invalid entry names the file, the server and the field; the other entries stay', () => {
    const config = parse(`{"mcpServers": {
      "ok": {"command": "node"},
      "bad-args": {"command": "node", "args": ["a", 3]},
      "bad-url": {"type": "sse", "url": "not a url"},
      "bad-timeout": {"command": "node", "timeout": 0},
      "neither": {"disabled": true},
      "both": {"command": "node", "url": "http://x/mcp"},
      "wrong-type": {"type": "websocket", "url": "ws://x"},
      "not-object": "npx server"
    }}`);
    assert.deepEqual([...config.servers.keys()], ['ok']);
    assert.deepEqual(config.problems.map(describeMcpConfigProblem), [
      'MCP config /ws/.smith/mcp.json: server "bad-args": field "args[1]": Invalid input: expected string, received number',
      'MCP config /ws/.smith/mcp.json: server "bad-url": field "url": must be a URL such as http://localhost:3000/mcp',
      'MCP config /ws/.smith/mcp.json: server "bad-timeout": field "timeout": must be at least 1 (seconds)',
      'MCP config /ws/.smith/mcp.json: server "neither": needs "command" (a local server started on stdio) or "url" (a remote server)',
      'MCP config /ws/.smith/mcp.json: server "both": has both "command" and "url"; keep one (command for a local server, url for a remote one)',
      'MCP config /ws/.smith/mcp.json: server "wrong-type": field "type": Invalid option: expected one of "stdio"|"streamableHttp"|"sse"|"http"',
      'MCP config /ws/.smith/mcp.json: server "not-object": must be an object with "command" (a local server) or "url" (a remote server)',
    ]);
    assert.deepEqual([...config.invalid.keys()], ['bad-args', 'bad-url', 'bad-timeout', 'neither', 'both', 'wrong-type', 'not-object']);
  });

  test('an empty file or one without mcpServers defines no servers', () => {
    assert.equal(parse('').servers.size, 0);
    assert.equal(parse('{}').servers.size, 0);
  });

  test('a user-level server keeps its name against the workspace file, and --mcp-config overrides the global file; missing files are fine', () => {
    const ws = createTempWorkspace('smith-mcp-config-');
    try {
      ws.write(
        'storage/mcp_settings.json',
        JSON.stringify({ mcpServers: { shared: { command: 'global' }, onlyGlobal: { command: 'g' }, both: { command: 'g2' } } }),
      );
      ws.write(
        'project/.smith/mcp.json',
        JSON.stringify({ mcpServers: { shared: { command: 'workspace' }, onlyWorkspace: { command: 'w' }, fromExtra: { command: 'w2' } } }),
      );
      ws.write('extra.json', JSON.stringify({ mcpServers: { fromExtra: { url: 'http://localhost:1/mcp' }, both: { url: 'http://localhost:2/mcp' } } }));
      const sources = mcpConfigSources({ storageDir: `${ws.root}/storage`, cwd: `${ws.root}/project`, extraFile: '../extra.json', claudeUserFile: null });
      assert.deepEqual(
        sources.map((s) => s.scope),
        ['global', 'workspace', 'workspace', 'extra'],
      );
      assert.equal(sources[3]!.path, `${ws.root}/extra.json`);
      const config = mergeMcpConfigFiles(sources.map(readMcpConfigFile), { workspaceTrust: () => 'trusted' });
      assert.equal((config.servers.get('shared')!.transport as { command: string }).command, 'global');
      assert.equal(config.servers.get('shared')!.source, `${ws.root}/storage/mcp_settings.json`);
      assert.equal(config.servers.get('onlyGlobal')!.source, `${ws.root}/storage/mcp_settings.json`);
      assert.equal(config.servers.get('onlyWorkspace')!.source, `${ws.root}/project/.smith/mcp.json`);
      assert.equal(config.servers.get('fromExtra')!.transport.type, 'streamableHttp');
      assert.equal(config.servers.get('both')!.transport.type, 'streamableHttp');
      assert.deepEqual(config.problems.map(describeMcpConfigProblem), [
        `MCP config ${ws.root}/project/.smith/mcp.json: server "shared": ignored: a user-level server of the same name (in ${ws.root}/storage/mcp_settings.json) is used instead; rename one of them`,
        `MCP config ${ws.root}/project/.smith/mcp.json: server "fromExtra": ignored: a user-level server of the same name (in ${ws.root}/extra.json) is used instead; rename one of them`,
      ]);
      assert.equal(config.invalid.size, 0);
      assert.equal(
        mergeMcpConfigFiles(mcpConfigSources({ storageDir: `${ws.root}/none`, cwd: `${ws.root}/none`, claudeUserFile: null }).map(readMcpConfigFile)).servers
          .size,
        0,
      );
    } finally {
      ws.dispose();
    }
  });

  test('a valid entry in a later file replaces an invalid one of the same name, and the reverse', () => {
    const global = parseMcpConfigText('{"mcpServers": {"a": {"command": 5}, "b": {"command": "ok"}}}', { path: '/g.json', scope: 'global', baseDir: '/' });
    const extra = parseMcpConfigText('{"mcpServers": {"a": {"command": "fixed"}, "b": {"args": "x"}}}', { path: '/extra.json', scope: 'extra', baseDir: '/' });
    const config = mergeMcpConfigFiles([global, extra]);
    assert.deepEqual([...config.servers.keys()], ['a']);
    assert.deepEqual([...config.invalid.keys()], ['b']);
  });
});
