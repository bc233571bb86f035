// The panel's "Browse servers" backend against a local registry speaking the real API format: the
// search's view (how each server runs, what it needs, its source), the next page, a failing
// registry, and an install that keeps secrets out of the file.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { parseMcpConfigText } from '../../../src/core/mcp/mcp-config.js';
import { McpRegistryBrowser } from '../../../src/panel/mcp-registry-browser.js';
import { mcpPanelState } from '../../../src/panel/mcp-panel-state.js';
import { parseHostMessage } from '../../../src/shared/protocol.js';
import { REGISTRY_SERVERS, startLocalRegistry, type LocalRegistry } from '../../fixtures/mcp/registry-server.js';

describe('the panel registry browser', { timeout: 60_000 }, () => {
  let registry: LocalRegistry;
  let dir: string;
  let browser: McpRegistryBrowser;
  let secrets: Record<string, string>;
  let changes: number;
  let reloads: number;
  before(async () => (registry = await startLocalRegistry(REGISTRY_SERVERS)));
  after(() => registry.close());
  beforeEach(() => {
    registry.fault = 'none';
    dir = mkdtempSync(join(tmpdir(), 'smith-panel-registry-'));
    secrets = {};
    changes = 0;
    reloads = 0;
    browser = new McpRegistryBrowser({
      registryUrl: () => registry.url,
      configPath: (scope) => join(dir, scope === 'user' ? 'mcp_settings.json' : '.smith/mcp.json'),
      storeSecret: async (name, value) => {
        secrets[name] = value;
      },
      reload: async () => void reloads++,
      changed: () => void changes++,
    });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a search shows each server with how it installs, what it needs and its source; More adds the next page', async () => {
    await browser.search('example');
    const view = browser.view()!;
    assert.equal(changes, 1);
    const weather = view.servers.find((s) => s.name === 'io.github.example/weather')!;
    assert.equal(weather.installs, 'npm @example/weather-mcp@1.2.0 (stdio)');
    assert.equal(weather.source, 'https://github.com/example/weather');
    assert.deepEqual(
      weather.inputs.map((i) => [i.name, i.required, i.secret]),
      [
        ['WEATHER_API_KEY', true, true],
        ['WEATHER_UNITS', true, false],
      ],
    );
    // The state the webview gets passes the protocol's schema.
    const state = mcpPanelState({ servers: [], problems: [], sources: [], registry: view });
    assert.ok(parseHostMessage({ type: 'mcpState', state }).ok);
    await browser.search('example', view.nextCursor);
    assert.equal(browser.view()!.servers.length, 4);
    assert.ok(browser.view()!.nextCursor);
    registry.fault = 'status500';
    await browser.search('example');
    assert.match(browser.view()!.error ?? '', /answered HTTP 500/);
    assert.equal(browser.view()!.servers.length, 0);
  });

  test('install writes the entry with ${NAME} for the secret, stores the secret, and never replaces an existing server', async () => {
    await browser.search('weather');
    await assert.rejects(browser.install('io.github.example/weather', 'user', { WEATHER_UNITS: 'metric' }), /needs WEATHER_API_KEY \(kept in secret storage/);
    writeFileSync(join(dir, 'mcp_settings.json'), '{\n  // mine\n  "mcpServers": { "weather": { "command": "old" }, },\n}\n');
    const key = await browser.install('io.github.example/weather', 'user', { WEATHER_UNITS: 'metric', WEATHER_API_KEY: 'sk-secret-1' });
    assert.equal(key, 'weather-2');
    assert.deepEqual(secrets, { WEATHER_API_KEY: 'sk-secret-1' });
    assert.equal(reloads, 1);
    const text = readFileSync(join(dir, 'mcp_settings.json'), 'utf8');
    assert.doesNotMatch(text, /sk-secret/);
    assert.match(text, /\/\/ mine/);
    const parsed = parseMcpConfigText(text, { path: 'x', scope: 'global', baseDir: dir }, secrets);
    assert.ok(parsed.ok);
    const entry = parsed.entries.get('weather-2');
    assert.ok(entry && !('message' in entry) && entry.transport.type === 'stdio');
    assert.deepEqual(entry.transport.env, { WEATHER_API_KEY: 'sk-secret-1', WEATHER_UNITS: 'metric' });

    await browser.search('remote');
    assert.equal(await browser.install('com.example/remote', 'workspace', { Authorization: 'Bearer t' }), 'remote');
    assert.equal((secrets as Record<string, string>).AUTHORIZATION, 'Bearer t');
    assert.match(readFileSync(join(dir, '.smith/mcp.json'), 'utf8'), /"Authorization": "\$\{AUTHORIZATION\}"/);
    await assert.rejects(browser.install('io.github.example/notes', 'user', {}), /not in the last search/);
  });

  test('a field left empty or blank is not given: a required one is missing, and nothing is written', async () => {
    await browser.search('weather');
    for (const blank of ['', '   ']) {
      await assert.rejects(
        browser.install('io.github.example/weather', 'user', { WEATHER_UNITS: blank, WEATHER_API_KEY: 'sk-secret-1' }),
        /needs WEATHER_UNITS\./,
        JSON.stringify(blank),
      );
      await assert.rejects(browser.install('io.github.example/weather', 'user', { WEATHER_UNITS: 'metric', WEATHER_API_KEY: blank }), /needs WEATHER_API_KEY/);
    }
    assert.throws(() => readFileSync(join(dir, 'mcp_settings.json'), 'utf8'), /ENOENT/);
    assert.deepEqual(secrets, {});
  });
});
