// Models released after this build: inferred from their family until the user fetches a catalogue
// (`smith models refresh`), whose entries then win; a bad catalogue changes nothing.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const NEW_MODEL = {
  contextWindow: 800_000,
  maxOutputTokens: 100_000,
  inputPrice: 1.5,
  outputPrice: 12,
  cacheReadPrice: 0.15,
  supportsReasoning: true,
  supportsImages: true,
  supportsPromptCache: true,
};
const CATALOGUE = JSON.stringify({
  version: 1,
  models: {
    openai: { 'gpt-5.3': NEW_MODEL, 'gpt-broken': { ...NEW_MODEL, contextWindow: -1 } },
    nosuchvendor: { x: NEW_MODEL },
  },
});

describe('smith models refresh and inferred model facts', () => {
  const fx = useAgentFixture();
  let server: Server;
  let base = '';
  before(async () => {
    server = createServer((request, response) => {
      if (request.url === '/catalogue.json') response.writeHead(200, { 'content-type': 'application/json' }).end(CATALOGUE);
      else if (request.url === '/down') response.writeHead(503).end('maintenance');
      else if (request.url === '/endless') {
        response.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (response.write(chunk)) {}
          response.once('drain', pump);
        };
        response.on('close', () => response.removeAllListeners('drain'));
        pump();
      } else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const listOpenAi = async () => {
    fx.server.models.body = JSON.stringify({ object: 'list', data: [{ id: 'gpt-5.3', object: 'model' }] });
    const run = await runCli({
      args: ['--provider', 'openai', '--base-url', fx.server.openAiBaseUrl, '--list-models', '--output', 'json', '--storage', fx.storage],
      env: { OPENAI_API_KEY: 'k' },
    });
    delete fx.server.models.body;
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as Record<string, unknown>[]).find((model) => model.id === 'gpt-5.3');
  };

  test('an unknown model of a known family is listed with its family’s facts, marked as inferred', async () => {
    const listed = await listOpenAi();
    assert.equal(listed?.inferredFrom, 'gpt-5.1');
    assert.equal(typeof listed?.contextWindow, 'number');
    assert.equal(typeof listed?.inputPrice, 'number');
  });

  test('a fetched catalogue is checked entry by entry, kept in the storage, and wins over the inference', async () => {
    const run = await runCli({ args: ['models', 'refresh', `${base}/catalogue.json`, '--storage', fx.storage] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^1 model from http:\/\/127\.0\.0\.1:\d+\/catalogue\.json, kept in .*model-catalog\.json\n$/);
    assert.match(run.stderr, /left out openai\/gpt-broken: contextWindow must be a positive whole number/);
    assert.match(run.stderr, /left out nosuchvendor: not a vendor/);
    const stored = JSON.parse(readFileSync(join(fx.storage, 'model-catalog.json'), 'utf8')) as { models: { openai: Record<string, unknown> } };
    assert.deepEqual(Object.keys(stored.models.openai), ['gpt-5.3']);
    const listed = await listOpenAi();
    assert.equal(listed?.inferredFrom, undefined, 'the catalogue knows it now');
    assert.equal(listed?.contextWindow, 800_000);
    assert.equal(listed?.inputPrice, 1.5);
  });

  test('a source that is down, endless, not JSON or holds no valid entry changes nothing, saying why', async () => {
    const file = join(fx.storage, 'model-catalog.json');
    const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const notJson = join(fx.ws.root, 'not-json.json');
    writeFileSync(notJson, '{"version": 1, "models": ');
    const empty = join(fx.ws.root, 'empty.json');
    writeFileSync(empty, JSON.stringify({ version: 1, models: { openai: { 'gpt-x': { contextWindow: 1 } } } }));
    const cases: Array<[string, RegExp]> = [
      [`${base}/down`, /could not fetch .*\/down: HTTP 503/],
      [`${base}/endless`, /sent more than \d+ bytes: not a model catalogue/],
      [notJson, /is not JSON/],
      [empty, /has no valid model entry: openai\/gpt-x: maxOutputTokens must be a positive whole number/],
      ['http://127.0.0.1:1/nothing-listens', /could not fetch/],
    ];
    for (const [source, expected] of cases) {
      const run = await runCli({ args: ['models', 'refresh', source, '--storage', fx.storage] });
      assert.equal(run.code, 1, `${source}: ${run.stderr}`);
      assert.match(run.stderr, expected, source);
      assert.equal(existsSync(file) ? readFileSync(file, 'utf8') : undefined, before, `${source} left the stored catalogue as it was`);
    }
  });

  test('without a source the environment names one; without either it is a usage error', async () => {
    const missing = await runCli({ args: ['models', 'refresh', '--storage', fx.storage], env: { SMITH_MODEL_CATALOG_URL: '' } });
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /needs a URL or a file/);
    const fromEnv = await runCli({ args: ['models', 'refresh', '--storage', fx.storage], env: { SMITH_MODEL_CATALOG_URL: `${base}/catalogue.json` } });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    const wrong = await runCli({ args: ['models', 'fetch', '--storage', fx.storage] });
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /unknown models command: fetch/);
    // A flag it does not know is a usage error too, for `smith mcp` as for every command.
    for (const args of [
      ['models', 'refresh', '--bogus'],
      ['mcp', 'list', '--bogus'],
      ['models', '--storage'],
    ]) {
      const bad = await runCli({ args: [...args] });
      assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
      assert.match(bad.stderr, /Unknown option '--bogus'|argument missing/, args.join(' '));
    }
  });
});
