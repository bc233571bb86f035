import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { McpServerSnapshot } from '../../../src/core/mcp/mcp-server-snapshot.js';
import { hiddenMcpToolNames, isDiscoveryMode, mcpPromptSection } from '../../../src/core/mcp/mcp-prompt.js';

const tool = (name: string) => ({
  name,
  description: `Does ${name}.\nSecond line.`,
  inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
});
const server = (name: string, extra: Partial<McpServerSnapshot> = {}): McpServerSnapshot => ({
  name,
  status: 'connected',
  source: '/ws/.smith/mcp.json',
  tools: [],
  resources: [],
  resourceTemplates: [],
  prompts: [],
  ...extra,
});
const hubOf = (...servers: McpServerSnapshot[]) => ({ servers: () => servers });

describe('mcpPromptSection', () => {
  test('no servers, no section; all MCP tools hidden', () => {
    assert.equal(mcpPromptSection(hubOf()), '');
    assert.equal(hiddenMcpToolNames(hubOf()).size, 5);
  });

  test('lists each connected server with tools, compact schemas, templates and resources; unavailable ones in one line', () => {
    const section = mcpPromptSection(
      hubOf(
        server('docs', {
          tools: [tool('search')],
          resourceTemplates: [{ uriTemplate: 'docs://page/{id}', name: 'page', description: 'A page' }],
          resources: [{ uri: 'docs://index', name: 'index' }],
        }),
        server('broken', { status: 'error', error: 'Could not connect: spawn x ENOENT\nLast server output:\n...' }),
        server('later', { status: 'connecting', reconnect: { attempt: 2, maxAttempts: 5 } }),
      ),
    );
    assert.equal(
      section,
      [
        '# MCP servers',
        '',
        "MCP (Model Context Protocol) servers give you more tools and data. Call a server's tool with use_mcp_tool: server_name, tool_name, and arguments as a JSON object matching the tool's input schema. Read a resource with access_mcp_resource: server_name and uri (for a resource template, fill in its {placeholders}).",
        '',
        '## docs',
        '',
        'Tools:',
        '- search: Does search. Second line.',
        '  Input schema: {"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}',
        '',
        'Resource templates:',
        '- docs://page/{id} (page): A page',
        '',
        'Resources:',
        '- docs://index (index)',
        '',
        'Unavailable servers (their tools cannot be used now):',
        '- broken: error: Could not connect: spawn x ENOENT',
        '- later: reconnecting (attempt 2 of 5)',
      ].join('\n'),
    );
  });

  test('discovery mode starts above the threshold of connected tools', () => {
    const big = server('big', {
      tools: Array.from({ length: 41 }, (_, i) => tool(`t${i}`)),
      config: {
        name: 'big',
        source: '',
        transport: { type: 'stdio', command: 'x', args: [], env: {} },
        disabled: false,
        autoApprove: [],
        timeoutSeconds: 60,
        description: 'Everything big',
      },
    });
    const small = server('small', { tools: [tool('one')], instructions: '# Small server\nUse it for small things.' });
    assert.equal(isDiscoveryMode([big, small]), true);
    assert.equal(isDiscoveryMode([big, small], { discoveryThreshold: 42 }), false);
    assert.equal(isDiscoveryMode([server('off', { status: 'error', tools: big.tools })]), false);
    const section = mcpPromptSection(hubOf(big, small));
    assert.match(section, /offer 42 tools, too many to list here/);
    assert.match(section, /Servers:\n- big \(41 tools\): Everything big\n- small \(1 tool\): Small server$/);
    assert.doesNotMatch(section, /Input schema/);
    assert.deepEqual([...hiddenMcpToolNames(hubOf(big, small))], []);
    assert.deepEqual([...hiddenMcpToolNames(hubOf(small))], ['list_mcp_servers', 'search_mcp_tools', 'get_mcp_tool_details']);
  });

  test('configured but nothing connected says so', () => {
    assert.match(mcpPromptSection(hubOf(server('x', { status: 'disabled' }))), /none is connected now[\s\S]*- x: disabled$/);
  });
});
