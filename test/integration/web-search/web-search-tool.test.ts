// web_search against a local server speaking Brave's, Tavily's and SearXNG's real formats: results,
// approvals, domain filtering by the call and by the user's rules, and every way a backend fails.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { createWebSearchTool } from '../../../src/core/tools/web-search.js';
import { searchResultDenyRules } from '../../../src/core/permissions/permission-rules.js';
import { braveBackend } from '../../../src/core/web-search/brave-search.js';
import { searxngBackend } from '../../../src/core/web-search/searxng-search.js';
import { tavilyBackend } from '../../../src/core/web-search/tavily-search.js';
import { BRAVE_TEST_KEY, startSearchApiServer, TAVILY_TEST_KEY, type FixtureResult, type SearchApiServer } from '../../fixtures/search-api-server.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const RESULTS: FixtureResult[] = [
  {
    title: 'fs | Node.js <strong>v22</strong> Documentation',
    url: 'https://nodejs.org/api/fs.html',
    snippet: 'The <strong>node:fs</strong> module enables interacting with the file system &amp; more.',
  },
  { title: 'fs.cp recursive - Stack Overflow', url: 'https://stackoverflow.com/questions/1', snippet: 'Use fs.cp with recursive: true.' },
  { title: 'Ads', url: 'https://tracker.ads.example/landing', snippet: 'Buy now' },
  { title: 'Docs mirror', url: 'https://docs.mirror.dev/fs', snippet: 'A mirror.' },
];

function text(outcome: ToolOutcome): string {
  if (outcome.kind === 'result') return outcome.output;
  return outcome.kind === 'error' ? `ERROR${outcome.mistake ? ' (mistake)' : ''}: ${outcome.error}` : outcome.kind;
}

describe('web_search', () => {
  let server: SearchApiServer;
  let root: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'smith-web-search-'));
    server = await startSearchApiServer();
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.script = { results: RESULTS };
  });

  const brave = () => braveBackend(BRAVE_TEST_KEY, {}, { endpoint: server.braveEndpoint, timeoutMs: 3000 });
  const approving = () => {
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    return harness;
  };

  test('Brave: the query and count go as Brave takes them, the key in its header; results come back compact, with typed facts', async () => {
    const harness = new ToolHarness(root);
    harness.answers = [{ approved: true }];
    const outcome = await harness.run(createWebSearchTool(brave()), { query: '  node  fs.cp\nrecursive ', max_results: '3' });
    assert.equal(
      text(outcome),
      [
        'Results for "node fs.cp recursive" (Brave Search):',
        '',
        '1. fs | Node.js v22 Documentation',
        '   https://nodejs.org/api/fs.html',
        '   The node:fs module enables interacting with the file system & more.',
        '',
        '2. fs.cp recursive - Stack Overflow',
        '   https://stackoverflow.com/questions/1',
        '   Use fs.cp with recursive: true.',
        '',
        '3. Ads',
        '   https://tracker.ads.example/landing',
        '   Buy now',
      ].join('\n'),
    );
    const request = server.requests[0]!;
    assert.equal(request.method, 'GET');
    assert.deepEqual(request.query, { q: 'node fs.cp recursive', count: '3' });
    assert.equal(request.headers['x-subscription-token'], BRAVE_TEST_KEY);
    assert.equal(harness.asked.length, 1);
    assert.equal(harness.asked[0]!.summary, 'Search the web for "node fs.cp recursive"');
    assert.match(harness.asked[0]!.reason ?? '', /Sends the query to 127\.0\.0\.1:\d+/);
    assert.deepEqual(outcome.kind === 'result' && outcome.details?.webSearch, {
      query: 'node fs.cp recursive',
      backend: 'Brave Search',
      results: RESULTS.slice(0, 3).map((r) => ({ title: r.title.replace(/<\/?strong>/g, ''), url: r.url })),
      dropped: 0,
    });
  });

  test('Tavily: a POST with the query, the count and the domain lists, the key as a bearer token', async () => {
    const tool = createWebSearchTool(tavilyBackend(TAVILY_TEST_KEY, {}, { endpoint: server.tavilyEndpoint }));
    const outcome = await approving().run(tool, { query: 'fs cp', blocked_domains: 'stackoverflow.com, ads.example' });
    assert.match(text(outcome), /^Results for "fs cp" \(Tavily\):\n\n1\. fs \| Node\.js v22 Documentation\n {3}https:\/\/nodejs\.org\/api\/fs\.html\n/);
    // What the backend sent anyway is filtered again: the blocked domains (and their subdomains) are gone.
    assert.doesNotMatch(text(outcome), /stackoverflow|ads\.example/);
    assert.match(text(outcome), /2 results were outside the domains asked for and left out\.$/);
    const request = server.requests[0]!;
    assert.equal(request.method, 'POST');
    assert.equal(request.headers.authorization, `Bearer ${TAVILY_TEST_KEY}`);
    assert.deepEqual(JSON.parse(request.body), {
      query: 'fs cp',
      max_results: 8,
      search_depth: 'basic',
      exclude_domains: ['stackoverflow.com', 'ads.example'],
    });
  });

  test('SearXNG under a path: format=json, allowed domains as site: terms, and only their results shown', async () => {
    const tool = createWebSearchTool(searxngBackend(`${server.url}/searx/`, {}));
    const outcome = await approving().run(tool, { query: 'fs', allowed_domains: '["nodejs.org", "mirror.dev"]' });
    assert.equal(server.requests[0]!.path, '/searx/search');
    assert.deepEqual(server.requests[0]!.query, { q: 'fs (site:nodejs.org OR site:mirror.dev)', format: 'json' });
    assert.deepEqual(outcome.kind === 'result' && outcome.details?.webSearch?.results.map((r) => r.url), [
      'https://nodejs.org/api/fs.html',
      'https://docs.mirror.dev/fs',
    ]);
    assert.equal(outcome.kind === 'result' && outcome.details?.webSearch?.dropped, 2);
  });

  test("the user's deny list, WebFetch(domain:…) and WebSearch(domain:…) deny rules drop results, named for the model", async () => {
    const rules = [
      { effect: 'deny' as const, rule: 'WebFetch(domain:stackoverflow.com)', source: '.smith/settings.json' },
      { effect: 'deny' as const, rule: 'WebSearch(domain:*.mirror.dev)', source: '--deny' },
      // An allow or ask rule with a domain filters nothing.
      { effect: 'allow' as const, rule: 'WebSearch(domain:nodejs.org)', source: '--allow' },
    ];
    const tool = createWebSearchTool(brave(), { deniedDomains: ['ADS.example.'], denyRules: () => searchResultDenyRules(rules) });
    const outcome = await approving().run(tool, { query: 'fs' });
    assert.equal(outcome.kind, 'result');
    assert.deepEqual(outcome.kind === 'result' && outcome.details?.webSearch?.results.map((r) => r.url), ['https://nodejs.org/api/fs.html']);
    assert.match(
      text(outcome),
      /3 results were left out because the user keeps the web tools from their hosts \(WebFetch\(domain:stackoverflow\.com\), the deny list's "ADS\.example\.", WebSearch\(domain:\*\.mirror\.dev\)\); do not try to reach them another way\.$/,
    );
  });

  test('no results, and every result denied, are clear errors that are not the model’s mistake', async () => {
    server.script = { results: [] };
    assert.equal(
      text(await approving().run(createWebSearchTool(brave()), { query: 'zzqx' })),
      'ERROR: The search for "zzqx" found no results (Brave Search). Try other or fewer words.',
    );
    server.script = { results: RESULTS.slice(1, 2) };
    const denied = await approving().run(createWebSearchTool(brave(), { deniedDomains: ['stackoverflow.com'] }), { query: 'fs' });
    assert.match(text(denied), /^ERROR: The search for "fs" found no results \(Brave Search\)\. 1 result was left out because the user keeps/);
  });

  test('bad parameters are the model’s mistakes, asked about never and sent nowhere', async () => {
    const harness = new ToolHarness(root);
    const tool = createWebSearchTool(brave());
    const cases: [Record<string, string>, RegExp][] = [
      [{ query: '   \n ' }, /The query is empty/],
      [{ query: 'x'.repeat(401) }, /at most 400/],
      [{ query: 'x', max_results: '0' }, /max_results must be a whole number from 1 to 20; got "0"/],
      [{ query: 'x', max_results: 'lots' }, /got "lots"/],
      [{ query: 'x', allowed_domains: 'https://nodejs.org/api' }, /allowed_domains takes domain names such as example\.com/],
      [{ query: 'x', allowed_domains: 'a.com', blocked_domains: 'b.com' }, /not both/],
    ];
    for (const [params, expected] of cases)
      assert.match(text(await harness.run(tool, params)), new RegExp(`^ERROR \\(mistake\\): .*${expected.source}`), JSON.stringify(params));
    assert.equal(harness.asked.length, 0);
    assert.equal(server.requests.length, 0);
  });

  test('a rejected search sends nothing', async () => {
    const harness = new ToolHarness(root);
    harness.answers = [{ approved: false, feedback: 'use the docs' }];
    assert.deepEqual(await harness.run(createWebSearchTool(brave()), { query: 'x' }), { kind: 'rejected', feedback: 'use the docs' });
    assert.equal(server.requests.length, 0);
  });

  test('a refused key, a rate limit, a server error, an answer that is not JSON or of another shape: clear errors without the key', async () => {
    const cases: [Parameters<typeof startSearchApiServer> extends [] ? SearchApiServer['script'] : never, RegExp][] = [
      [{ status: 429 }, /Brave Search \(127\.0\.0\.1:\d+\) is rate limiting the searches \(HTTP 429\); wait before searching again/],
      [{ status: 503 }, /had a server error \(HTTP 503\); try again later\. It said: "status 503"/],
      [{ status: 418, body: 'teapot' }, /answered HTTP 418\. It said: "teapot"/],
      [{ fault: 'not-json' }, /answered with something that is not JSON \(text\/html, beginning "<!DOCTYPE html><html><body>Sign in to the proxy/],
      [{ fault: 'other-shape' }, /Brave Search answered with JSON of another shape \("web\.results" is not a list\)/],
    ];
    for (const [script, expected] of cases) {
      server.script = script;
      const outcome = await approving().run(createWebSearchTool(brave()), { query: 'fs' });
      assert.match(text(outcome), /^ERROR: The search for "fs" did not complete\. /);
      assert.match(text(outcome), expected);
    }
    server.script = { results: RESULTS };
    const wrongKey = await approving().run(createWebSearchTool(braveBackend('BSA-wrong-key', {}, { endpoint: server.braveEndpoint })), { query: 'fs' });
    assert.match(text(wrongKey), /refused the API key \(HTTP 401\); check the key in the settings\. It said: "invalid api key"/);
    assert.doesNotMatch(text(wrongKey), /BSA-wrong-key/);
  });

  test('a huge answer, an endless one and one that never comes end in clear errors, bounded in size and time', async () => {
    server.script = { fault: 'huge' };
    assert.match(text(await approving().run(createWebSearchTool(brave()), { query: 'fs' })), /answered with more than 2 MB; the answer was not read\./);
    server.script = { fault: 'endless' };
    assert.match(text(await approving().run(createWebSearchTool(brave()), { query: 'fs' })), /answered with more than 2 MB; the answer was not read\./);
    server.script = { fault: 'hang' };
    const slow = braveBackend(BRAVE_TEST_KEY, {}, { endpoint: server.braveEndpoint, timeoutMs: 300 });
    assert.match(
      text(await approving().run(createWebSearchTool(slow), { query: 'fs' })),
      /Brave Search \(127\.0\.0\.1:\d+\) gave no complete answer within 0\.3 s\./,
    );
  });

  test('a backend that cannot be reached, or that the deny list keeps Smith from, is a clear error', async () => {
    const closed = await freePort();
    const unreachable = searxngBackend(`http://127.0.0.1:${closed}`, {});
    assert.match(
      text(await approving().run(createWebSearchTool(unreachable), { query: 'fs' })),
      /SearXNG \(127\.0\.0\.1:\d+\) could not be reached: ECONNREFUSED/,
    );
    const denied = searxngBackend(server.url, { deniedDomains: ['localhost'] });
    assert.match(
      text(await approving().run(createWebSearchTool(denied), { query: 'fs' })),
      /SearXNG \(127\.0\.0\.1:\d+\) was not asked: 127\.0\.0\.1 is on the user's deny list for web tools \(entry "localhost"\)/,
    );
    assert.equal(server.requests.length, 0);
  });

  test('SearXNG without the JSON format enabled (403) says what to change', async () => {
    server.script = { status: 403, body: '<html>Forbidden</html>' };
    assert.match(
      text(await approving().run(createWebSearchTool(searxngBackend(server.url, {})), { query: 'fs' })),
      /SearXNG \(127\.0\.0\.1:\d+\) answered HTTP 403: the instance does not allow the JSON format; add json to search\.formats in its settings\.yml\.$/,
    );
  });
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
