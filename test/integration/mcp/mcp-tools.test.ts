// use_mcp_tool and access_mcp_resource as the model uses them, against the SDK fixture on stdio.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import { createAccessMcpResourceTool } from '../../../src/core/tools/access-mcp-resource.js';
import type { ToolHandler } from '../../../src/core/tool-kit/tool-spec.js';
import { createUseMcpTool } from '../../../src/core/tools/use-mcp-tool.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { configOf, fixtureEntry, REPO_ROOT } from '../../fixtures/mcp/mcp-test-support.js';

describe('use_mcp_tool and access_mcp_resource', () => {
  let hub: McpHub;
  let useTool: ToolHandler;
  let accessResource: ToolHandler;
  let harness: ToolHarness;

  before(async () => {
    hub = new McpHub();
    await hub.applyConfig(
      configOf({
        fx: { ...fixtureEntry(), autoApprove: ['add', 'media'] },
        slow: { ...fixtureEntry('--name', 'slow'), timeout: 1 },
        off: { ...fixtureEntry(), disabled: true },
      }),
    );
    useTool = createUseMcpTool(hub);
    accessResource = createAccessMcpResourceTool(hub);
  });
  after(() => hub.dispose());
  beforeEach(() => {
    harness = new ToolHarness(REPO_ROOT);
    harness.policy = DEFAULT_POLICY;
  });

  const use = (params: Record<string, string>) => harness.run(useTool, params);

  test("a tool in the server's autoApprove list runs without asking", async () => {
    const outcome = await use({ server_name: 'fx', tool_name: 'add', arguments: '{"a": 2, "b": 40}' });
    assert.deepEqual(outcome, { kind: 'result', output: '42', details: { mcp: { server: 'fx', tool: 'add', isError: false } } });
    assert.equal(harness.asked.length, 0);
  });

  test('other tools ask first, with a summary naming tool and server', async () => {
    harness.answers = [{ approved: true, feedback: 'go ahead' }];
    const outcome = await use({ server_name: 'fx', tool_name: 'shout', arguments: '{"message": "hey"}' });
    // The feedback reaches the model from the log's approval_answered (api-projection), not from the tool's output.
    assert.deepEqual(outcome, { kind: 'result', output: 'shouted hey', details: { mcp: { server: 'fx', tool: 'shout', isError: false } } });
    assert.equal(harness.asked[0]!.summary, 'Use MCP tool shout on server fx');
    assert.equal(harness.asked[0]!.tool, 'use_mcp_tool');
  });

  test('a rejection is passed back with the feedback', async () => {
    harness.answers = [{ approved: false, feedback: 'not now' }];
    assert.deepEqual(await use({ server_name: 'fx', tool_name: 'pid' }), { kind: 'rejected', feedback: 'not now' });
  });

  test('the MCP auto-approve switch of the policy approves every MCP tool', async () => {
    harness.policy = { ...DEFAULT_POLICY, mcpTools: true };
    const outcome = await use({ server_name: 'fx', tool_name: 'shout', arguments: '{"message":"x"}' });
    assert.equal(outcome.kind, 'result');
    assert.equal(harness.asked.length, 0);
  });

  test("invalid JSON is the model's mistake and nothing is asked or called", async () => {
    const outcome = await use({ server_name: 'fx', tool_name: 'add', arguments: "{a: 1, 'b': 2,}" });
    assert.equal(outcome.kind, 'error');
    assert.ok(outcome.kind === 'error' && outcome.mistake);
    assert.match(outcome.kind === 'error' ? outcome.error : '', /^The arguments of use_mcp_tool are not valid JSON \(.+\)\. Give a JSON object such as/);
    const array = await use({ server_name: 'fx', tool_name: 'add', arguments: '[1, 2]' });
    assert.match(array.kind === 'error' ? array.error : '', /must be a JSON object \(like \{"city": "Paris"\}\), not an array/);
  });

  test('arguments that break the input schema are refused before the call, listing every failing path', async () => {
    const outcome = await use({ server_name: 'fx', tool_name: 'nested', arguments: '{"user": {"name": 7}, "tags": "x", "mode": "quick"}' });
    assert.equal(outcome.kind, 'error');
    if (outcome.kind !== 'error') return;
    assert.equal(outcome.mistake, true);
    assert.match(outcome.error, /^The arguments for nested on MCP server "fx" do not match its input schema, so the tool was not called:\n/);
    assert.match(outcome.error, /- arguments\.user\.name: must be string/);
    assert.match(outcome.error, /- arguments\.user\.age: required property is missing/);
    assert.match(outcome.error, /- arguments\.tags: must be array/);
    assert.match(outcome.error, /- arguments\.mode: must be one of "fast", "careful"/);
    assert.match(outcome.error, /\nInput schema: \{"type":"object"/);
    assert.equal(harness.asked.length, 0);
  });

  test('JSON in a code fence is accepted', async () => {
    const outcome = await use({ server_name: 'fx', tool_name: 'add', arguments: '```json\n{"a": 1, "b": 2}\n```' });
    assert.deepEqual(outcome, { kind: 'result', output: '3', details: { mcp: { server: 'fx', tool: 'add', isError: false } } });
  });

  test('isError results become tool errors, not mistakes', async () => {
    harness.answers = [{ approved: true }];
    const outcome = await use({ server_name: 'fx', tool_name: 'fail', arguments: '{"reason": "disk full"}' });
    assert.deepEqual(outcome, {
      kind: 'error',
      error: 'The MCP tool fail on server "fx" reported an error:\nIt failed: disk full',
      mistake: false,
      details: { mcp: { server: 'fx', tool: 'fail', isError: true } },
    });
  });

  test('images are described, embedded resources inlined and links listed', async () => {
    const outcome = await use({ server_name: 'fx', tool_name: 'media' });
    assert.equal(outcome.kind, 'result');
    const output = outcome.kind === 'result' ? outcome.output : '';
    assert.equal(
      output,
      'Here is a picture.\n\n[image: image/png, 70 bytes]\n\n[resource: fixture://notes/1 (text/plain)]\nEmbedded note text.\n\nResource links (read them with access_mcp_resource):\n- fixture://greeting (greeting) [text/plain]: A friendly greeting',
    );
  });

  test('unknown servers and tools are mistakes that list what exists', async () => {
    const noServer = await use({ server_name: 'fxx', tool_name: 'add' });
    assert.deepEqual(noServer, { kind: 'error', error: 'There is no MCP server named "fxx". Servers: fx, slow, off.', mistake: true });
    const noTool = await use({ server_name: 'fx', tool_name: 'multiply' });
    assert.equal(noTool.kind, 'error');
    assert.match(
      noTool.kind === 'error' ? noTool.error : '',
      /^MCP server "fx" has no tool named "multiply"\. Its tools: add, pid, fail, media, slow, shout, grow, nested\.$/,
    );
  });

  test('a server that is down is a tool error naming it and its status', async () => {
    const outcome = await use({ server_name: 'off', tool_name: 'add', arguments: '{"a":1,"b":2}' });
    assert.deepEqual(outcome, { kind: 'error', error: 'MCP server "off" is not available: it is disabled in the MCP settings.', mistake: false });
  });

  test("a call past the server's timeout is reported as cancelled", async () => {
    harness.answers = [{ approved: true }];
    const outcome = await use({ server_name: 'slow', tool_name: 'slow' });
    assert.equal(outcome.kind, 'error');
    if (outcome.kind !== 'error') return;
    assert.equal(outcome.mistake, false);
    assert.match(outcome.error, /did not answer within 1 s \(the server's timeout\), so the request was cancelled/);
  });

  test('access_mcp_resource reads direct resources and filled-in templates', async () => {
    harness.answers = [{ approved: true }, { approved: true }, { approved: true }];
    const greeting = await harness.run(accessResource, { server_name: 'fx', uri: 'fixture://greeting' });
    assert.deepEqual(greeting, {
      kind: 'result',
      output: '[resource: fixture://greeting (text/plain)]\nHello from the fixture.',
      details: { mcp: { server: 'fx', uri: 'fixture://greeting', isError: false } },
    });
    assert.equal(harness.asked[0]!.summary, 'Read MCP resource fixture://greeting on server fx');
    const item = await harness.run(accessResource, { server_name: 'fx', uri: 'fixture://items/42' });
    assert.deepEqual(item, {
      kind: 'result',
      output: '[resource: fixture://items/42 (application/json)]\n{"id":"42"}',
      details: { mcp: { server: 'fx', uri: 'fixture://items/42', isError: false } },
    });
    const missing = await harness.run(accessResource, { server_name: 'fx', uri: 'fixture://nothing' });
    assert.equal(missing.kind, 'error');
    assert.match(missing.kind === 'error' ? missing.error : '', /MCP server "fx" failed the call to resource fixture:\/\/nothing: .*not found/i);
  });
});
