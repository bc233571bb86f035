// web_search in the CLI end to end: the task's Anthropic model searches with the server tool (a
// request of its own to the scripted Anthropic server), a SearXNG instance answers in its JSON, the
// user's rules drop results or refuse the tool, Plan mode and read-only modes have it, and with no
// backend the model is never offered it.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { lastUserText, systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import type { RecordedRequest } from '../../fixtures/scripted-llm-server.js';
import { startSearchApiServer, type SearchApiServer } from '../../fixtures/search-api-server.js';

const KEY = 'sk-ant-cli-search-0123456789';

/** The system prompt of an Anthropic request (text blocks, or a string). */
function anthropicSystem(request: RecordedRequest): string {
  const system = request.body.system as string | { text: string }[];
  return typeof system === 'string' ? system : system.map((block) => block.text).join('\n');
}

/** The text of the last user message of an Anthropic request, its blocks' text joined (tool results included). */
function anthropicLastUserText(request: RecordedRequest): string {
  const last = (request.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'user').at(-1)!;
  const texts = (content: unknown): string[] =>
    typeof content === 'string'
      ? [content]
      : Array.isArray(content)
        ? content.flatMap((block: { text?: string; content?: unknown }) => [...(block.text !== undefined ? [block.text] : []), ...texts(block.content)])
        : [];
  return texts(last.content).join('\n');
}
const search = (query: string, extra = '') => ({ text: `<web_search>\n<query>${query}</query>\n${extra}</web_search>` });
const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe('smith CLI: web_search', () => {
  const fx = useAgentFixture();
  let searx: SearchApiServer;
  before(async () => {
    searx = await startSearchApiServer();
  });
  after(() => searx.close());
  beforeEach(() => {
    searx.requests.length = 0;
    searx.script = {
      results: [
        { title: 'fs | Node.js', url: 'https://nodejs.org/api/fs.html', snippet: 'File system.' },
        { title: 'A question', url: 'https://stackoverflow.com/q/1', snippet: 'Asked.' },
      ],
    };
  });
  const anthropicArgs = () => [
    '--provider',
    'anthropic',
    '--base-url',
    fx.server.anthropicBaseUrl,
    '--model',
    'claude-sonnet-4-6',
    '--tool-protocol',
    'xml',
    '--cwd',
    fx.ws.root,
    '--storage',
    fx.storage,
  ];

  test("Plan mode, the anthropic provider: Anthropic's server tool searches, a WebFetch deny rule drops a result, the plan follows", async () => {
    fx.server.enqueue(
      search('node fs cp'),
      {
        webSearch: {
          query: 'node fs cp',
          results: [
            { title: 'fs.cp | Node.js', url: 'https://nodejs.org/api/fs.html#fscp' },
            { title: 'cp question', url: 'https://stackoverflow.com/q/2' },
          ],
          quotes: [{ url: 'https://nodejs.org/api/fs.html#fscp', cited_text: 'Asynchronously copies the entire directory structure.' }],
        },
        text: '',
      },
      { text: '<plan_mode_respond>\n<response>Use fs.cp.</response>\n</plan_mode_respond>' },
    );
    const run = await runCli({
      args: [...anthropicArgs(), '--plan', '--yes', '--deny', 'WebFetch(domain:stackoverflow.com)', '--output', 'json', 'How do I copy a folder?'],
      env: { ANTHROPIC_API_KEY: KEY },
      timeoutMs: 120_000,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).result, 'Use fs.cp.');
    assert.match(anthropicSystem(fx.server.requestAt(0)), /## web_search/);
    const searchRequest = fx.server.requestAt(1);
    assert.deepEqual(searchRequest.body.tools, [{ type: 'web_search_20250305', name: 'web_search', max_uses: 1 }]);
    assert.deepEqual(searchRequest.body.messages, [{ role: 'user', content: 'node fs cp' }]);
    const results = anthropicLastUserText(fx.server.requestAt(2));
    assert.match(results, /1\. fs\.cp \| Node\.js\n {3}https:\/\/nodejs\.org\/api\/fs\.html#fscp\n {3}Asynchronously copies the entire directory structure\./);
    assert.doesNotMatch(results, /stackoverflow\.com\/q\/2/);
    assert.match(results, /1 result was left out because the user keeps the web tools from their hosts \(WebFetch\(domain:stackoverflow\.com\)\)/);
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(KEY));
  });

  test('--web-search searxng in the ask mode: the instance answers; a WebSearch deny rule refuses the tool before any request', async () => {
    fx.server.enqueue(search('fs docs', '<blocked_domains>stackoverflow.com</blocked_domains>\n'), done);
    const searxArgs = [...fx.cliArgs(), '--web-search', 'searxng', '--searxng-url', `${searx.url}/`, '--mode', 'ask', '--yes'];
    const run = await runCli({ args: [...searxArgs, 'Find the docs'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(searx.requests[0]!.query, { q: 'fs docs -site:stackoverflow.com', format: 'json' });
    assert.match(
      lastUserText(fx.server.requestAt(1)),
      /Results for "fs docs" \(SearXNG\):\n\n1\. fs \| Node\.js\n {3}https:\/\/nodejs\.org\/api\/fs\.html\n {3}File system\./,
    );

    searx.requests.length = 0;
    fx.server.requests.length = 0;
    fx.server.enqueue(search('fs docs'), done);
    const denied = await runCli({ args: [...searxArgs, '--deny', 'WebSearch', 'Find the docs'], timeoutMs: 60_000 });
    assert.equal(denied.code, 0, denied.stderr);
    assert.match(lastUserText(fx.server.requestAt(1)), /The user's permission rule WebSearch \(--deny\) denies this call, so it was not run/);
    assert.deepEqual(searx.requests, [], 'a denied search is sent nowhere');
  });

  test('without --yes each search asks on the terminal, naming where the query goes; a rejection sends nothing and reaches the model', async () => {
    fx.server.enqueue(search('private project name'), done);
    const run = await runCli({ args: [...fx.cliArgs(), '--searxng-url', searx.url, 'Look it up'], answers: ['n'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Search the web for "private project name"/);
    assert.match(run.stderr, /Sends the query to 127\.0\.0\.1:\d+/);
    assert.match(lastUserText(fx.server.requestAt(1)), /The user denied this operation\./);
    assert.deepEqual(searx.requests, []);
  });

  test('off, or nothing set up for auto: the model is never offered web_search; a bad backend is a usage error', async () => {
    fx.server.enqueue(done, done);
    const off = await runCli({ args: [...anthropicArgs(), '--web-search', 'off', '--yes', 'Hi'], env: { ANTHROPIC_API_KEY: KEY }, timeoutMs: 60_000 });
    assert.equal(off.code, 0, off.stderr);
    assert.doesNotMatch(anthropicSystem(fx.server.requestAt(0)), /web_search/);
    const auto = await runCli({ args: [...fx.cliArgs(), '--yes', 'Hi'], timeoutMs: 60_000 });
    assert.equal(auto.code, 0, auto.stderr);
    assert.doesNotMatch(systemPromptOf(fx.server.requestAt(1)), /web_search/);

    const bad = await runCli({ args: [...fx.cliArgs(), '--web-search', 'bing', 'Hi'] });
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /--web-search\/--searxng-url: the web search backend must be one of auto, anthropic, openai, brave, tavily, searxng, off; got "bing"/,
    );
    fx.server.enqueue(done);
    const missing = await runCli({ args: [...fx.cliArgs(), '--web-search', 'brave', '--yes', 'Hi'], timeoutMs: 60_000 });
    assert.equal(missing.code, 0, missing.stderr);
    assert.doesNotMatch(systemPromptOf(fx.server.requestAt(2)), /web_search/);
    assert.match(missing.stderr, /web_search is off: no Brave Search API key is set \(BRAVE_API_KEY/);
  });
});
