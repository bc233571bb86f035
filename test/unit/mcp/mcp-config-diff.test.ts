import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { McpServerConfig } from '../../../src/core/mcp/mcp-config.js';
import { diffMcpConfigs } from '../../../src/core/mcp/mcp-config-diff.js';

const stdio = (name: string, extra: Partial<McpServerConfig> = {}): McpServerConfig => ({
  name,
  source: '/ws/.smith/mcp.json',
  transport: { type: 'stdio', command: 'node', args: ['server.js'], env: {} },
  disabled: false,
  autoApprove: [],
  timeoutSeconds: 60,
  ...extra,
});
const map = (...configs: McpServerConfig[]) => new Map(configs.map((c) => [c.name, c]));

describe('diffMcpConfigs', () => {
  test('autoApprove, timeout and description changes are live updates, not restarts', () => {
    const diff = diffMcpConfigs(map(stdio('a'), stdio('b')), map(stdio('a', { autoApprove: ['x'], timeoutSeconds: 5 }), stdio('b', { description: 'B' })));
    assert.deepEqual(diff, { added: [], removed: [], restarted: [], updated: ['a', 'b'] });
  });

  test('a changed command, args, env, cwd, url or headers restarts only that server', () => {
    const before = map(stdio('a'), stdio('b'), stdio('c'), stdio('d'), {
      ...stdio('r'),
      transport: { type: 'streamableHttp', url: 'http://x/mcp', headers: {} },
    });
    const after = map(
      { ...stdio('a'), transport: { type: 'stdio', command: 'node', args: ['server.js', '--verbose'], env: {} } },
      { ...stdio('b'), transport: { type: 'stdio', command: 'node', args: ['server.js'], env: { TOKEN: '1' } } },
      { ...stdio('c'), transport: { type: 'stdio', command: 'node', args: ['server.js'], env: {}, cwd: '/tmp' } },
      stdio('d'),
      { ...stdio('r'), transport: { type: 'streamableHttp', url: 'http://x/mcp', headers: { Authorization: 'Bearer 2' } } },
    );
    assert.deepEqual(diffMcpConfigs(before, after), { added: [], removed: [], restarted: ['a', 'b', 'c', 'r'], updated: [] });
  });

  test('enabling or disabling counts as a restart; added and removed servers are listed', () => {
    const diff = diffMcpConfigs(map(stdio('a'), stdio('gone')), map(stdio('a', { disabled: true }), stdio('new')));
    assert.deepEqual(diff, { added: ['new'], removed: ['gone'], restarted: ['a'], updated: [] });
  });

  test('a source-only change (same entry moved to another file) restarts nothing', () => {
    assert.deepEqual(diffMcpConfigs(map(stdio('a')), map(stdio('a', { source: '/other.json' }))), { added: [], removed: [], restarted: [], updated: ['a'] });
  });
});
