import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FileCredentialStore, MCP_CREDENTIALS_FILE } from '../../../src/core/mcp/mcp-credential-store.js';
import { describeMcpConfigProblem, mergeMcpConfigFiles, parseMcpConfigText } from '../../../src/core/mcp/mcp-config.js';

function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'smith-credentials-'));
  return run(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

describe("the CLI's MCP credentials file", () => {
  test('values round-trip; the file is 0600 even when it existed with a wider mode; no temporary file is left', () =>
    withDir(async (dir) => {
      const store = new FileCredentialStore(join(dir, 'new-storage'));
      assert.equal(await store.get('a'), undefined);
      await store.store('a', 'one');
      await store.store('b', 'two');
      assert.equal(await store.get('a'), 'one');
      assert.equal(statSync(join(dir, 'new-storage')).mode & 0o777, 0o700, 'a storage folder it creates is private');
      const file = join(dir, 'new-storage', MCP_CREDENTIALS_FILE);
      chmodSync(file, 0o644);
      await store.delete('a');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(await store.get('a'), undefined);
      assert.equal(await store.get('b'), 'two');
      assert.deepEqual(readdirSync(join(dir, 'new-storage')), [MCP_CREDENTIALS_FILE]);
    }));

  test('a damaged file reads as empty (nobody is signed in) and the next write replaces it', () =>
    withDir(async (dir) => {
      writeFileSync(join(dir, MCP_CREDENTIALS_FILE), '{"credentials": {"a": ');
      const store = new FileCredentialStore(dir);
      assert.equal(await store.get('a'), undefined);
      await store.store('a', 'fresh');
      assert.equal(await new FileCredentialStore(dir).get('a'), 'fresh');
    }));
});

describe('the "oauth" field of a server entry', () => {
  const source = { path: '/u/mcp_settings.json', scope: 'global' as const, baseDir: '/u' };
  const parse = (entry: unknown) => mergeMcpConfigFiles([parseMcpConfigText(JSON.stringify({ mcpServers: { s: entry } }), source, { SECRET: 'shh' })]);

  test('is read for a remote server, with ${VAR} in it expanded', () => {
    const config = parse({ url: 'http://localhost:1/mcp', oauth: { clientId: 'id', clientSecret: '${SECRET}', callbackPort: 8765, scope: 'read write' } });
    assert.deepEqual(config.problems, []);
    const transport = config.servers.get('s')!.transport;
    assert.deepEqual(transport.type !== 'stdio' && transport.oauth, { clientId: 'id', clientSecret: 'shh', callbackPort: 8765, scope: 'read write' });
  });

  test('is refused on a local server, without a client id for a secret, and for a port out of range', () => {
    const problem = (entry: unknown) => parse(entry).problems.map(describeMcpConfigProblem).join('\n');
    assert.match(problem({ command: 'x', oauth: {} }), /field "oauth": only a remote server/);
    assert.match(problem({ url: 'http://localhost:1/mcp', oauth: { clientSecret: 'x' } }), /"oauth.clientSecret": needs "clientId" too/);
    assert.match(problem({ url: 'http://localhost:1/mcp', oauth: { callbackPort: 70000 } }), /field "oauth.callbackPort": must be a port/);
  });
});
