// Discovery mode: a server with 100 tools; the prompt lists servers only and the model searches.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { hiddenMcpToolNames, mcpPromptSection } from '../../../src/core/mcp/mcp-prompt.js';
import { mcpToolsFor } from '../../../src/core/tools/mcp-tools.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import type { ToolHandler, ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { configOf, fixtureEntry, REPO_ROOT } from '../../fixtures/mcp/mcp-test-support.js';

describe('discovery mode with 100 tools', () => {
  let hub: McpHub;
  let tools: Map<string, ToolHandler>;
  const harness = new ToolHarness(REPO_ROOT);
  const run = async (name: string, params: Record<string, string>): Promise<string> => {
    const outcome: ToolOutcome = await harness.run(tools.get(name)!, params);
    if (outcome.kind === 'result') return outcome.output;
    throw new Error(`${name} gave ${JSON.stringify(outcome)}`);
  };

  before(async () => {
    hub = new McpHub();
    await hub.applyConfig(
      configOf({ catalog: { ...fixtureEntry('--catalogue'), description: 'Work apps: GitHub, Slack, Jira, calendar, email and more' }, fx: fixtureEntry() }),
    );
    tools = new Map(mcpToolsFor(hub).map((t) => [t.spec.name, t]));
    harness.policy = APPROVE_ALL_POLICY;
  });
  after(() => hub.dispose());

  test('above the threshold the prompt lists servers only, and the meta-tools are offered', () => {
    assert.equal(hub.server('catalog')!.tools.length, 100);
    const section = mcpPromptSection(hub);
    assert.match(section, /offer 108 tools, too many to list here/);
    assert.match(section, /- catalog \(100 tools, 2 resources\): Work apps: GitHub, Slack, Jira, calendar, email and more/);
    assert.match(section, /- fx \(8 tools, 2 resources\): Test fixture server for Smith\./);
    assert.doesNotMatch(section, /github_create_issue|Input schema/);
    assert.deepEqual([...hiddenMcpToolNames(hub)], []);
  });

  test('below the threshold every tool and its schema is listed, and the meta-tools are hidden', () => {
    const section = mcpPromptSection(hub, { discoveryThreshold: 200 });
    assert.match(section, /## catalog\nWork apps/);
    assert.match(
      section,
      /- github_create_issue: Open a new issue in a GitHub repository with a title and body\.\n {2}Input schema: \{"type":"object","properties":\{"repo":/,
    );
    assert.deepEqual([...hiddenMcpToolNames(hub, { discoveryThreshold: 200 })], ['list_mcp_servers', 'search_mcp_tools', 'get_mcp_tool_details']);
  });

  test('search_mcp_tools ranks the right tool first', async () => {
    for (const [query, expected] of [
      ['create a github issue', 'github_create_issue'],
      ['send a message to a slack channel', 'slack_post_message'],
      ['rolling restart of a kubernetes deployment', 'k8s_restart_deployment'],
      ['refund a payment', 'stripe_refund_payment'],
    ]) {
      const output = await run('search_mcp_tools', { query: query! });
      assert.match(output, new RegExp(`^Best matches for "${query}" among 108 tools:\\n1\\. server_name=catalog tool_name=${expected}: `), output);
    }
    const limited = await run('search_mcp_tools', { query: 'add', server_name: 'fx', max_results: '1' });
    assert.match(limited, /among 8 tools:\n1\. server_name=fx tool_name=add: Add two numbers\.\n\nRead a tool's input schema/);
  });

  test('get_mcp_tool_details shows the schema; then use_mcp_tool calls it', async () => {
    const details = await run('get_mcp_tool_details', { server_name: 'catalog', tool_name: 'weather_get_forecast' });
    assert.match(details, /^Tool weather_get_forecast on MCP server "catalog"\nDescription: Weather forecast for a city/);
    assert.match(details, /"required": \[\n\s+"city"\n\s+\]/);
    const result = await run('use_mcp_tool', { server_name: 'catalog', tool_name: 'weather_get_forecast', arguments: '{"city": "Oslo"}' });
    assert.equal(result, 'weather_get_forecast done with {"city":"Oslo"}');
  });

  test('a wrong tool name in get_mcp_tool_details suggests similar ones', async () => {
    const outcome = await harness.run(tools.get('get_mcp_tool_details')!, { server_name: 'catalog', tool_name: 'slack_send_message' });
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.kind === 'error' ? outcome.error : '', /has no tool named "slack_send_message"\. Similar tools: slack_\w+/);
  });

  test('list_mcp_servers gives the overview, and with server_name the tools and resources', async () => {
    const overview = await run('list_mcp_servers', {});
    assert.match(overview, /^MCP servers:\n- catalog \(100 tools, 2 resources\)/);
    const fx = await run('list_mcp_servers', { server_name: 'fx' });
    assert.match(fx, /^MCP server "fx" \(connected\): Test fixture server for Smith\.\n\nTools \(8\):\n- add: Add two numbers\./);
    assert.match(fx, /Resource templates:\n- fixture:\/\/items\/\{id\} \(item\): One item by id/);
    assert.match(fx, /Resources:\n- fixture:\/\/greeting \(greeting\): A friendly greeting/);
  });
});
