import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { mergeMcpConfigFiles, parseMcpConfigText, type McpConfigSource } from '../../../src/core/mcp/mcp-config.js';
import { WORKSPACE_TRUST_FILE, WorkspaceTrust } from '../../../src/core/mcp/workspace-trust.js';

const workspace: McpConfigSource = { path: '/repo/.smith/mcp.json', scope: 'workspace', baseDir: '/repo' };
const servers = (entries: Record<string, unknown>) => JSON.stringify({ mcpServers: entries });

function withStorage(run: (storageDir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'smith-trust-unit-'));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('workspace MCP trust', () => {
  test('an untrusted workspace file starts nothing and says which servers it holds back', () => {
    const config = mergeMcpConfigFiles([
      parseMcpConfigText(servers({ a: { command: 'evil', args: ['--x'] }, b: { url: 'http://localhost:1/mcp' } }), workspace),
    ]);
    assert.equal(config.servers.size, 0);
    assert.equal(config.untrusted?.decision, 'unknown');
    assert.equal(config.untrusted?.workspace, '/repo');
    assert.deepEqual(
      config.untrusted?.servers.map((s) => s.name),
      ['a', 'b'],
    );
    assert.match(
      config.problems.map((p) => p.message).join('\n'),
      /its MCP servers \(a, b\) were not started: this workspace's MCP settings are not trusted yet/,
    );
  });

  test('a file without servers needs no trust', () => {
    const config = mergeMcpConfigFiles([parseMcpConfigText('{}', workspace)]);
    assert.equal(config.untrusted, undefined);
    assert.deepEqual(config.problems, []);
  });

  test('the answer is remembered per workspace and launch settings; a changed command asks again', () => {
    withStorage((storageDir) => {
      const trust = new WorkspaceTrust({ storageDir });
      const first = mergeMcpConfigFiles([parseMcpConfigText(servers({ a: { command: 'tool', args: ['1'] } }), workspace)], { workspaceTrust: trust.check });
      assert.equal(first.untrusted?.decision, 'unknown');
      trust.remember('/repo', first.untrusted!.fingerprint, true);
      // Another process (the other host) reads the same answer.
      const again = new WorkspaceTrust({ storageDir });
      const trusted = mergeMcpConfigFiles([parseMcpConfigText(servers({ a: { command: 'tool', args: ['1'] } }), workspace)], { workspaceTrust: again.check });
      assert.deepEqual([...trusted.servers.keys()], ['a']);
      assert.equal(trusted.untrusted, undefined);
      // Disabling a server or changing its timeout keeps the trust; a new argument does not.
      const disabled = mergeMcpConfigFiles([parseMcpConfigText(servers({ a: { command: 'tool', args: ['1'], disabled: true, timeout: 5 } }), workspace)], {
        workspaceTrust: again.check,
      });
      assert.equal(disabled.untrusted, undefined);
      const changed = mergeMcpConfigFiles([parseMcpConfigText(servers({ a: { command: 'tool', args: ['2'] } }), workspace)], { workspaceTrust: again.check });
      assert.equal(changed.servers.size, 0);
      assert.equal(changed.untrusted?.decision, 'unknown');
      // The same folder elsewhere is another workspace.
      const other = mergeMcpConfigFiles(
        [parseMcpConfigText(servers({ a: { command: 'tool', args: ['1'] } }), { ...workspace, path: '/other/.smith/mcp.json', baseDir: '/other' })],
        { workspaceTrust: again.check },
      );
      assert.equal(other.untrusted?.decision, 'unknown');
      assert.match(readFileSync(join(storageDir, WORKSPACE_TRUST_FILE), 'utf8'), /"\/repo"/);
    });
  });

  test('a "no" is remembered too, and --trust-workspace trusts any file for the run', () => {
    withStorage((storageDir) => {
      const trust = new WorkspaceTrust({ storageDir });
      const text = servers({ a: { command: 'tool' } });
      const first = mergeMcpConfigFiles([parseMcpConfigText(text, workspace)], { workspaceTrust: trust.check });
      trust.remember('/repo', first.untrusted!.fingerprint, false);
      const denied = mergeMcpConfigFiles([parseMcpConfigText(text, workspace)], { workspaceTrust: trust.check });
      assert.equal(denied.untrusted?.decision, 'denied');
      assert.match(denied.problems.map((p) => p.message).join('\n'), /you chose not to trust/);
      const flagged = mergeMcpConfigFiles([parseMcpConfigText(text, workspace)], { workspaceTrust: new WorkspaceTrust({ storageDir, trustAll: true }).check });
      assert.deepEqual([...flagged.servers.keys()], ['a']);
    });
  });

  test('a trusted workspace file still cannot auto-approve tools (autoApprove or alwaysAllow)', () => {
    const config = mergeMcpConfigFiles(
      [parseMcpConfigText(servers({ a: { command: 'x', autoApprove: ['t'] }, b: { command: 'y', alwaysAllow: ['u'] } }), workspace)],
      {
        workspaceTrust: () => 'trusted',
      },
    );
    assert.deepEqual(config.servers.get('a')!.autoApprove, []);
    assert.deepEqual(config.servers.get('b')!.autoApprove, []);
    assert.deepEqual(
      config.problems.map((p) => `${p.server}: ${p.message}`),
      [
        'a: field "autoApprove": ignored: a workspace file cannot auto-approve tools; set auto-approval in the global settings',
        'b: field "autoApprove": ignored: a workspace file cannot auto-approve tools; set auto-approval in the global settings',
      ],
    );
    assert.equal(config.invalid.size, 0);
  });
});
