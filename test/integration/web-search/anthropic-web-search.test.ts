// Anthropic's server-side web search through the official SDK against the scripted Anthropic server:
// the request offers the server tool web_search_20250305 with the call's domain limits, the answer's
// web_search_tool_result block gives the results and its citations the snippets; failures are clear.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { createWebSearchTool } from '../../../src/core/tools/web-search.js';
import { anthropicBackend } from '../../../src/core/web-search/anthropic-search.js';
import { chooseSearchBackend } from '../../../src/core/web-search/web-search-settings.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const API_KEY = 'sk-ant-test-0123456789';

function text(outcome: ToolOutcome): string {
  if (outcome.kind === 'result') return outcome.output;
  return outcome.kind === 'error' ? `ERROR: ${outcome.error}` : outcome.kind;
}

describe("web_search with Anthropic's server tool", () => {
  let server: ScriptedLlmServer;
  let root: string;
  before(async () => {
    server = await startScriptedLlmServer();
    root = mkdtempSync(join(tmpdir(), 'smith-anthropic-search-'));
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  const tool = () => createWebSearchTool(anthropicBackend({ apiKey: API_KEY, baseUrl: server.anthropicBaseUrl, model: 'claude-sonnet-4-6' }));
  const approving = () => {
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    return harness;
  };

  test('the server tool is offered with the domain limits; the results come from web_search_tool_result, the snippets from the citations', async () => {
    server.enqueue({
      webSearch: {
        query: 'vitest workspace config',
        results: [
          { title: 'Workspace | Guide | Vitest', url: 'https://vitest.dev/guide/workspace', page_age: '2 weeks ago' },
          { title: 'Projects | Vitest', url: 'https://vitest.dev/guide/projects' },
        ],
        quotes: [{ url: 'https://vitest.dev/guide/projects', cited_text: 'Vitest supports defining multiple projects in a single config.' }],
      },
      text: '',
    });
    const harness = new ToolHarness(root);
    harness.answers = [{ approved: true }];
    const outcome = await harness.run(tool(), { query: 'vitest workspace config', allowed_domains: 'vitest.dev' });
    assert.equal(
      text(outcome),
      [
        `Results for "vitest workspace config" (Anthropic's web search):`,
        '',
        '1. Workspace | Guide | Vitest',
        '   https://vitest.dev/guide/workspace',
        '   (page age: 2 weeks ago)',
        '',
        '2. Projects | Vitest',
        '   https://vitest.dev/guide/projects',
        '   Vitest supports defining multiple projects in a single config.',
      ].join('\n'),
    );
    const request = server.requestAt(0);
    assert.equal(request.path, '/v1/messages');
    assert.ok(request.headers['x-api-key'] === API_KEY || request.headers.authorization === `Bearer ${API_KEY}`, "the task's key goes with it");
    assert.equal(request.body.stream, undefined);
    assert.equal(request.body.model, 'claude-sonnet-4-6');
    assert.deepEqual(request.body.tools, [{ type: 'web_search_20250305', name: 'web_search', max_uses: 1, allowed_domains: ['vitest.dev'] }]);
    assert.deepEqual(request.body.messages, [{ role: 'user', content: 'vitest workspace config' }]);
    assert.match(harness.asked[0]!.reason ?? '', /^Sends the query to Anthropic \(127\.0\.0\.1:\d+, model claude-sonnet-4-6\)\.$/);
  });

  test("the server's search error, a model that does not search, a refused key and an overloaded API are clear errors", async () => {
    server.enqueue(
      { webSearch: { query: 'x', results: { error_code: 'too_many_requests' } }, text: '' },
      { text: 'I already know the answer.' },
      { fault: 'status', status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } },
      { fault: 'status', status: 529 },
      {
        fault: 'status',
        status: 400,
        body: { type: 'error', error: { type: 'invalid_request_error', message: 'web search is not enabled for this organization' } },
      },
    );
    const expected = [
      /^ERROR: The search for "x" did not complete\. Anthropic's web search failed: too many searches \(rate limited\); wait before searching again\.$/,
      /The model did not run Anthropic's web search; it answered: "I already know the answer\."/,
      /Anthropic refused the web search \(HTTP 401\): invalid x-api-key/,
      /Anthropic had a server error \(HTTP 529\) during the web search; try again later\./,
      /Anthropic refused the web search request \(HTTP 400\): web search is not enabled for this organization/,
    ];
    for (const pattern of expected) {
      const outcome = await approving().run(tool(), { query: 'x' });
      assert.equal(outcome.kind, 'error');
      assert.match(text(outcome), pattern);
      assert.doesNotMatch(text(outcome), new RegExp(API_KEY));
    }
  });

  test('auto picks it for the anthropic provider only, after a search service that is set up', () => {
    const anthropic = { provider: 'anthropic' as const, model: 'claude-sonnet-4-6', apiKey: API_KEY };
    assert.equal(chooseSearchBackend({ backend: 'auto' }, anthropic, {}).backend?.name, 'anthropic');
    assert.equal(chooseSearchBackend({ backend: 'auto', keys: { tavily: 'tvly-x' } }, anthropic, {}).backend?.name, 'tavily');
    assert.equal(chooseSearchBackend({ backend: 'auto' }, { provider: 'openai', model: 'gpt-5' }, {}).backend?.name, 'openai');
    assert.equal(chooseSearchBackend({ backend: 'auto' }, { provider: 'openai-compatible', model: 'qwen3' }, {}).backend, undefined);
    assert.equal(chooseSearchBackend({ backend: 'auto' }, { provider: 'azure-openai', model: 'gpt-5' }, {}).backend, undefined);
    assert.equal(chooseSearchBackend({ backend: 'auto' }, { provider: 'bedrock', model: 'claude' }, {}).backend, undefined);
    assert.match(
      chooseSearchBackend({ backend: 'anthropic' }, { provider: 'openai', model: 'gpt-5' }, {}).problem ?? '',
      /^web_search is off: Anthropic's web search needs the anthropic provider/,
    );
    assert.equal(chooseSearchBackend({ backend: 'off', keys: { brave: 'k' } }, anthropic, {}).backend, undefined);
  });
});
