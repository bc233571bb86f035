// server-everything's get-tiny-image called through use_mcp_tool in a whole task: a vision model
// gets the image in its next request (Anthropic's shape, under both tool protocols), a model
// without vision, or one the catalogue does not know, gets only the text description.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { mcpTaskWiring } from '../../../src/core/tools/mcp-tools.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import type { ProviderConfig, ToolProtocol } from '../../../src/core/providers/types.js';
import { createTaskEnvironment } from '../../../src/core/session/task-environment.js';
import { DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import { Task } from '../../../src/core/task/task.js';
import { startScriptedLlmServer, type RecordedRequest, type ScriptedLlmServer, type ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { configOf, npmServerEntry } from '../../fixtures/mcp/mcp-test-support.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

const TOOL = 'get-tiny-image';
const DESCRIPTION = /Here's the image you requested:\n\n\[image: image\/png, \d+ bytes\]\n\nThe image above is the MCP logo\./;

function callImageTool(protocol: ToolProtocol): ScriptedReply {
  if (protocol === 'native') return { toolCalls: [{ name: 'use_mcp_tool', arguments: { server_name: 'everything', tool_name: TOOL } }] };
  return { text: `<use_mcp_tool>\n<server_name>everything</server_name>\n<tool_name>${TOOL}</tool_name>\n</use_mcp_tool>` };
}

function complete(protocol: ToolProtocol): ScriptedReply {
  if (protocol === 'native') return { toolCalls: [{ name: 'attempt_completion', arguments: { result: 'Saw it.' } }] };
  return { text: '<attempt_completion>\n<result>Saw it.</result>\n</attempt_completion>' };
}

/** All text of a request's last user turn, wherever the vendor put it. */
function lastUserTurnText(request: RecordedRequest): string {
  const messages: any[] = request.body.messages;
  const texts = (content: any): string[] =>
    typeof content === 'string' ? [content] : content.flatMap((b: any) => (b.type === 'text' ? [b.text] : b.type === 'tool_result' ? texts(b.content) : []));
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  return messages
    .slice(lastAssistant + 1)
    .flatMap((m) => texts(m.content))
    .join('\n');
}

describe('MCP images through use_mcp_tool (server-everything + scripted LLM)', () => {
  let llm: ScriptedLlmServer;
  let hub: McpHub;
  let ws: TempWorkspace;
  let storage: string;
  before(async () => {
    llm = await startScriptedLlmServer();
    hub = new McpHub();
    await hub.applyConfig(configOf({ everything: { ...npmServerEntry('server-everything'), autoApprove: [TOOL] } }));
    ws = createTempWorkspace('smith-mcp-images-');
    storage = mkdtempSync(join(tmpdir(), 'smith-mcp-images-storage-'));
  });
  after(async () => {
    await hub.dispose();
    await llm.close();
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  /** Runs a task that calls the image tool once, then completes; returns the request after the call and the logged result. */
  async function runImageTask(config: ProviderConfig) {
    const protocol = config.toolProtocol ?? 'xml';
    const wiring = mcpTaskWiring(hub);
    const environment = await createTaskEnvironment({
      cwd: ws.root,
      storageDir: storage,
      host: new ToolHarness(ws.root).host,
      provider: createProvider(config),
      policy: DEFAULT_POLICY,
      maxIterations: 5,
      extraTools: wiring.tools,
      extraPromptSections: wiring.promptSections,
      hiddenTools: wiring.hiddenTools,
    });
    llm.requests.length = 0;
    llm.enqueue(callImageTool(protocol), complete(protocol));
    try {
      const task = Task.create(environment.options, 'Show me the MCP logo');
      assert.deepEqual(await task.run(), { status: 'completed', result: 'Saw it.' });
      const result = task.log.events.find((e) => e.type === 'tool_result');
      assert.ok(result?.type === 'tool_result');
      return { next: llm.requests[1]!, result };
    } finally {
      await environment.dispose();
    }
  }

  for (const protocol of ['xml', 'native'] as const) {
    test(`a vision model (claude-sonnet-4-5, ${protocol}) gets the image in its next request, with the description`, async () => {
      const { next, result } = await runImageTask({
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        apiKey: 'sk-ant-test',
        baseUrl: llm.anthropicBaseUrl,
        toolProtocol: protocol,
      });
      assert.equal(result.images?.length, 1);
      assert.equal(result.images![0]!.mimeType, 'image/png');
      assert.match(result.images![0]!.data, /^iVBORw0KGgo/);
      assert.equal(next.format, 'anthropic');
      assert.deepEqual(
        next.images.map((i) => ({ mimeType: i.mimeType, data: i.data, inToolResult: i.inToolResult, messageIndex: i.messageIndex })),
        // Native: inside the tool_result block; XML: an image block after the result's text.
        [{ mimeType: 'image/png', data: result.images![0]!.data, inToolResult: protocol === 'native', messageIndex: next.body.messages.length - 1 }],
      );
      assert.match(lastUserTurnText(next), DESCRIPTION);
    });
  }

  test('a model without vision (o3-mini) gets only the description; nothing is logged for images', async () => {
    const { next, result } = await runImageTask({ provider: 'openai', model: 'o3-mini', apiKey: 'sk-test', baseUrl: llm.openAiBaseUrl });
    assert.equal(result.images, undefined);
    assert.equal(next.format, 'openai');
    assert.deepEqual(next.images, []);
    assert.equal(typeof next.body.messages.at(-1).content, 'string', 'a text-only user message stays a string');
    assert.match(lastUserTurnText(next), DESCRIPTION);
  });

  test('a model the catalogue does not know (openai-compatible) is assumed not to see images', async () => {
    const { next, result } = await runImageTask({ provider: 'openai-compatible', model: 'scripted-model', baseUrl: llm.openAiBaseUrl, toolProtocol: 'native' });
    assert.equal(result.images, undefined);
    assert.deepEqual(next.images, []);
    assert.match(lastUserTurnText(next), DESCRIPTION);
  });
});
