import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { searchMcpTools, words } from '../../../src/core/mcp/mcp-tool-search.js';
import { TOOL_CATALOGUE } from '../../fixtures/mcp/tool-catalogue.js';

const catalogue = TOOL_CATALOGUE.map((t) => ({ server: 'catalog', tool: { name: t.name, description: t.description, inputSchema: {} } }));
const top = (query: string) => searchMcpTools(catalogue, query, 3).map((m) => m.tool.name);

describe('searchMcpTools', () => {
  test('words() splits snake_case, kebab-case and camelCase, drops stop words and stems lightly', () => {
    assert.deepEqual(words('github_create_issue'), ['github', 'creat', 'issu']);
    assert.deepEqual(words('createPullRequest'), ['creat', 'pull', 'request']);
    assert.deepEqual(words('List the open issues of a repo'), ['list', 'open', 'issu', 'repo']);
    assert.deepEqual(words('creating created creates'), ['creat', 'creat', 'creat']);
    assert.deepEqual(words('repositories searches'), ['repository', 'search']);
  });

  for (const [query, expected] of [
    ['create a github issue', 'github_create_issue'],
    ['send a message to a slack channel', 'slack_post_message'],
    ['weather forecast for the next days', 'weather_get_forecast'],
    ['restart the kubernetes deployment', 'k8s_restart_deployment'],
    ['refund a payment', 'stripe_refund_payment'],
    ['run sql query', 'postgres_run_query'],
    ['pod logs', 'k8s_get_pod_logs'],
    ['find free time for a meeting', 'calendar_find_free_slots'],
    ['move ticket to done', 'jira_transition_ticket'],
    ['createIssue', 'github_create_issue'],
  ] as const) {
    test(`"${query}" ranks ${expected} first`, () => assert.equal(top(query)[0], expected, top(query).join(', ')));
  }

  test('name matches count more than description matches', () => {
    const tools = [
      { server: 's', tool: { name: 'archive', description: 'Store an invoice for later.', inputSchema: {} } },
      { server: 's', tool: { name: 'invoice_pdf', description: 'Render a document.', inputSchema: {} } },
    ];
    assert.equal(searchMcpTools(tools, 'invoice')[0]!.tool.name, 'invoice_pdf');
  });

  test('a query without useful words, or with no match, returns nothing; the limit is respected', () => {
    assert.deepEqual(searchMcpTools(catalogue, 'the a of'), []);
    assert.deepEqual(searchMcpTools(catalogue, 'zebra'), []);
    assert.equal(searchMcpTools(catalogue, 'github', 4).length, 4);
  });
});
