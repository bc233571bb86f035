// The MCP Registry client and `smith mcp search|add|remove|list` against a local registry that
// speaks the API's real response format (pagination, a 500, a malformed body, a huge one).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { parseMcpConfigText } from '../../../src/core/mcp/mcp-config.js';
import { RegistryError, searchRegistry } from '../../../src/core/mcp/mcp-registry.js';
import { planRegistryInstall } from '../../../src/core/mcp/mcp-registry-install.js';
import { runCli } from '../../helpers/cli-runner.js';
import { REGISTRY_SERVERS, startLocalRegistry, type LocalRegistry } from '../../fixtures/mcp/registry-server.js';

describe('the MCP Registry', { timeout: 120_000 }, () => {
  let registry: LocalRegistry;
  let storage: string;
  let ws: string;
  before(async () => (registry = await startLocalRegistry(REGISTRY_SERVERS)));
  after(() => registry.close());
  beforeEach(() => {
    registry.fault = 'none';
    storage = mkdtempSync(join(tmpdir(), 'smith-registry-storage-'));
    ws = mkdtempSync(join(tmpdir(), 'smith-registry-ws-'));
  });
  afterEach(() => {
    rmSync(storage, { recursive: true, force: true });
    rmSync(ws, { recursive: true, force: true });
  });

  test('pages follow the cursor; latest versions are asked for; an entry of the wrong shape is named and skipped', async () => {
    const first = await searchRegistry({ baseUrl: registry.url, search: 'example' });
    assert.deepEqual(
      first.servers.map((s) => s.name),
      ['io.github.example/weather', 'io.github.example/notes'],
    );
    assert.equal(registry.queries.at(-1)!.get('version'), 'latest');
    assert.equal(registry.queries.at(-1)!.get('search'), 'example');
    const names: string[] = [...first.servers.map((s) => s.name)];
    const skipped: string[] = [];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await searchRegistry({ baseUrl: registry.url, search: 'example', cursor });
      names.push(...page.servers.map((s) => s.name));
      skipped.push(...page.skipped);
      cursor = page.nextCursor;
    }
    assert.equal(names.length, 5);
    assert.deepEqual(skipped.length, 1);
    assert.match(skipped[0]!, /^io\.example\/broken: description: /);
    const old = (await searchRegistry({ baseUrl: registry.url, search: 'old' })).servers[0];
    assert.equal(old?.status, 'deprecated');
  });

  test('a 500, a body that is not JSON, one without servers and one over the size limit are clear errors', async () => {
    registry.fault = 'status500';
    await assert.rejects(searchRegistry({ baseUrl: registry.url }), (e: unknown) => e instanceof RegistryError && /answered HTTP 500/.test(e.message));
    registry.fault = 'malformed';
    await assert.rejects(searchRegistry({ baseUrl: registry.url }), /sent a body that is not JSON/);
    registry.fault = 'huge';
    await assert.rejects(searchRegistry({ baseUrl: registry.url }), /sent more than 4194304 bytes for one page/);
    registry.fault = 'none';
    await assert.rejects(searchRegistry({ baseUrl: `${registry.url}/nowhere` }), /answered HTTP 404/);
    await assert.rejects(searchRegistry({ baseUrl: 'ftp://example.com' }), /must be http\(s\)/);
  });

  test('install plans: npm via npx, pypi via uvx, oci via docker, remotes with headers; secrets become ${NAME} references', async () => {
    const all = [];
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = await searchRegistry({ baseUrl: registry.url, ...(cursor ? { cursor } : {}) });
      all.push(...page.servers);
      cursor = page.nextCursor;
    }
    const byName = new Map(all.map((s) => [s.name, s]));
    const weather = planRegistryInstall(byName.get('io.github.example/weather')!, {
      values: { WEATHER_UNITS: 'metric', WEATHER_API_KEY: 'must-not-be-written' },
    });
    assert.deepEqual(weather.entry, {
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.2.0'],
      env: { WEATHER_API_KEY: '${WEATHER_API_KEY}', WEATHER_UNITS: 'metric' },
    });
    assert.equal(weather.name, 'weather');
    assert.deepEqual(planRegistryInstall(byName.get('io.github.example/notes')!).entry, { command: 'uvx', args: ['notes-mcp==0.3.1'] });
    assert.deepEqual(planRegistryInstall(byName.get('io.github.example/container')!).entry, {
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'LOG_LEVEL', 'docker.io/example/container-mcp:2.0.0'],
      env: { LOG_LEVEL: 'info' },
    });
    assert.deepEqual(planRegistryInstall(byName.get('com.example/remote')!).entry, {
      type: 'streamableHttp',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: '${AUTHORIZATION}' },
    });
  });

  const cli = (...args: string[]) => runCli({ args: ['mcp', ...args, '--storage', storage, '--cwd', ws, '--registry', registry.url], timeoutMs: 30_000 });
  const cliWith = (env: Record<string, string>, ...args: string[]) =>
    runCli({ args: ['mcp', ...args, '--storage', storage, '--cwd', ws, '--registry', registry.url], env, timeoutMs: 30_000 });

  test('smith mcp search shows description, how it runs, what it needs and its source; more pages are named', async () => {
    const run = await cli('search', 'example');
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^io\.github\.example\/weather 1\.2\.0\n {2}Weather forecasts\n {2}package: npm @example\/weather-mcp@1\.2\.0 \(stdio\)\n {4}env WEATHER_API_KEY \(required, secret\): API key\n/m,
    );
    assert.match(run.stdout, /source: https:\/\/github\.com\/example\/weather/);
    assert.match(run.stderr, /More: smith mcp search "example" --cursor 2/);
    registry.fault = 'status500';
    const failed = await cli('search', 'x');
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /answered HTTP 500/);
  });

  test('smith mcp add writes the user file without the secret, asks for missing inputs, refuses a secret on the command line; remove and list', async () => {
    const missing = await cli('add', 'io.github.example/weather');
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /needs --env WEATHER_UNITS=… \(metric or imperial\)/);
    const secret = await cli('add', 'io.github.example/weather', '--env', 'WEATHER_UNITS=metric', '--env', 'WEATHER_API_KEY=sk-123');
    assert.equal(secret.code, 2);
    assert.match(secret.stderr, /WEATHER_API_KEY is a secret: Smith does not write secrets into config files/);

    writeFileSync(join(storage, 'mcp_settings.json'), '{\n  // mine\n  "mcpServers": { "kept": { "command": "x" } }\n}\n');
    const added = await cli('add', 'io.github.example/weather', '--env', 'WEATHER_UNITS=metric');
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stderr, /environment variable WEATHER_API_KEY is a secret, read from \$WEATHER_API_KEY, which is not set/);
    const text = readFileSync(join(storage, 'mcp_settings.json'), 'utf8');
    assert.match(text, /\/\/ mine/);
    const parsed = parseMcpConfigText(text, { path: 'x', scope: 'global', baseDir: ws }, { WEATHER_API_KEY: 'sk-from-env' });
    assert.ok(parsed.ok);
    const entry = parsed.entries.get('weather');
    assert.ok(entry && !('message' in entry) && entry.transport.type === 'stdio');
    assert.deepEqual(entry.transport.env, { WEATHER_API_KEY: 'sk-from-env', WEATHER_UNITS: 'metric' });
    assert.doesNotMatch(text, /sk-/);

    const workspace = await cli('add', 'com.example/remote', '--scope', 'workspace', '--as', 'hosted');
    assert.equal(workspace.code, 0, workspace.stderr);
    assert.match(workspace.stderr, /starts once you trust this workspace's MCP servers/);
    assert.match(readFileSync(join(ws, '.smith', 'mcp.json'), 'utf8'), /"hosted"[\s\S]*"url": "https:\/\/mcp\.example\.com\/mcp"/);

    // Without the secrets in the environment the entries say what is missing.
    const unset = await cli('list');
    assert.match(unset.stdout, /^weather {2}invalid: uses \$\{WEATHER_API_KEY\}, but that variable is not set/m);
    const listed = await cliWith({ WEATHER_API_KEY: 'k', AUTHORIZATION: 'Bearer t' }, 'list');
    assert.match(listed.stdout, /^kept {2}x {2}.*mcp_settings\.json$/m);
    assert.match(listed.stdout, /^weather {2}npx -y @example\/weather-mcp@1\.2\.0/m);
    assert.match(listed.stdout, /^hosted {2}streamableHttp https:\/\/mcp\.example\.com\/mcp {2}.*\.smith\/mcp\.json$/m);

    const removed = await cli('remove', 'weather');
    assert.equal(removed.code, 0, removed.stderr);
    assert.doesNotMatch(readFileSync(join(storage, 'mcp_settings.json'), 'utf8'), /weather/);
    assert.equal((await cli('remove', 'weather')).code, 1);
    const unknown = await cli('add', 'io.example/nothing');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /has no server named io\.example\/nothing/);
  });
});
