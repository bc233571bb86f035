// OpenAI's hosted web search (the Responses API's web_search tool) through the official SDK against
// the scripted server's Responses format: the request and its domain filter, the results from the
// answer's url_citation annotations and the call's sources, and failures as clear errors.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { createWebSearchTool } from '../../../src/core/tools/web-search.js';
import { openAiBackend } from '../../../src/core/web-search/openai-search.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const API_KEY = 'sk-proj-search-test-0123456789';

function text(outcome: ToolOutcome): string {
  if (outcome.kind === 'result') return outcome.output;
  return outcome.kind === 'error' ? `ERROR: ${outcome.error}` : outcome.kind;
}

describe("web_search with OpenAI's hosted search", () => {
  let server: ScriptedLlmServer;
  let root: string;
  before(async () => {
    server = await startScriptedLlmServer();
    root = mkdtempSync(join(tmpdir(), 'smith-openai-search-'));
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  const tool = () => createWebSearchTool(openAiBackend({ apiKey: API_KEY, baseUrl: server.openAiBaseUrl, model: 'gpt-5' }));
  const approving = () => {
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    return harness;
  };

  test('the web_search tool with the allowed domains; cited pages first with the sentence they back, then the other sources', async () => {
    server.enqueue({
      webSearch: {
        query: 'vitest projects',
        results: [
          { title: 'Projects | Vitest', url: 'https://vitest.dev/guide/projects' },
          { title: 'Config | Vitest', url: 'https://vitest.dev/config/' },
        ],
        quotes: [{ url: 'https://vitest.dev/guide/projects', cited_text: 'Projects came in v3.2. Vitest supports several projects in one config.' }],
      },
    });
    const outcome = await approving().run(tool(), { query: 'vitest projects', allowed_domains: 'vitest.dev' });
    assert.equal(
      text(outcome),
      [
        `Results for "vitest projects" (OpenAI's web search):`,
        '',
        '1. Projects | Vitest',
        '   https://vitest.dev/guide/projects',
        '   Vitest supports several projects in one config.',
        '',
        '2. vitest.dev',
        '   https://vitest.dev/config/',
      ].join('\n'),
    );
    const request = server.requestAt(0);
    assert.equal(request.path, '/v1/responses');
    assert.equal(request.headers.authorization, `Bearer ${API_KEY}`);
    assert.deepEqual(request.body.tools, [{ type: 'web_search', filters: { allowed_domains: ['vitest.dev'] } }]);
    assert.equal(request.body.input, 'vitest projects');
    assert.equal(request.body.store, false);
    assert.deepEqual(request.body.include, ['web_search_call.action.sources']);
  });

  test('a failed search, a model that does not search, a refused key and a rate limit are clear errors', async () => {
    server.enqueue(
      { webSearch: { query: 'x', results: { error_code: 'unavailable' } } },
      { text: 'No need to search.' },
      { fault: 'status', status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } },
      { fault: 'status', status: 429 },
    );
    const expected = [
      /^ERROR: The search for "x" did not complete\. OpenAI's web search failed\.$/,
      /The model did not run OpenAI's web search; it answered: "No need to search\."/,
      /OpenAI refused the web search \(HTTP 401\): Incorrect API key provided/,
      /OpenAI is rate limiting \(HTTP 429\); wait before searching again/,
    ];
    for (const pattern of expected) {
      const outcome = await approving().run(tool(), { query: 'x' });
      assert.match(text(outcome), pattern);
      assert.doesNotMatch(text(outcome), new RegExp(API_KEY));
    }
  });
});
