// A whole task: the scripted LLM calls an MCP tool on server-everything and sees the result.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { mcpTaskWiring } from '../../../src/core/tools/mcp-tools.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { createTaskEnvironment } from '../../../src/core/session/task-environment.js';
import { DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import { Task } from '../../../src/core/task/task.js';
import { startScriptedLlmServer, type RecordedRequest, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { configOf, npmServerEntry } from '../../fixtures/mcp/mcp-test-support.js';

function lastUserContent(request: RecordedRequest): string {
  const users = (request.body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'user');
  const content = users.at(-1)!.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

describe('a task that uses an MCP tool (TaskEnvironment + scripted LLM + server-everything)', () => {
  let llm: ScriptedLlmServer;
  let hub: McpHub;
  let ws: TempWorkspace;
  let storage: string;
  before(async () => {
    llm = await startScriptedLlmServer();
    hub = new McpHub();
    await hub.applyConfig(configOf({ everything: { ...npmServerEntry('server-everything'), autoApprove: ['echo'] } }));
    ws = createTempWorkspace('smith-mcp-task-');
    storage = mkdtempSync(join(tmpdir(), 'smith-mcp-task-storage-'));
  });
  after(async () => {
    await hub.dispose();
    await llm.close();
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  test('the MCP section is in the system prompt and the tool result reaches the next request', async () => {
    const wiring = mcpTaskWiring(hub);
    const harness = new ToolHarness(ws.root);
    const environment = await createTaskEnvironment({
      cwd: ws.root,
      storageDir: storage,
      host: harness.host,
      provider: createProvider({ provider: 'openai-compatible', model: 'scripted-model', baseUrl: llm.openAiBaseUrl }),
      policy: DEFAULT_POLICY,
      maxIterations: 5,
      extraTools: wiring.tools,
      extraPromptSections: wiring.promptSections,
    });
    llm.enqueue(
      {
        text: 'I will ask the echo tool.\n<use_mcp_tool>\n<server_name>everything</server_name>\n<tool_name>echo</tool_name>\n<arguments>\n{"message": "hello from the model"}\n</arguments>\n</use_mcp_tool>',
      },
      (request) => {
        assert.match(lastUserContent(request), /\[use_mcp_tool for 'everything\/echo'\] Result:\nEcho: hello from the model/);
        return { text: '<attempt_completion>\n<result>The server echoed it.</result>\n</attempt_completion>' };
      },
    );
    try {
      const task = Task.create(environment.options, 'Echo a greeting through MCP');
      const outcome = await task.run();
      assert.deepEqual(outcome, { status: 'completed', result: 'The server echoed it.' });
      const system = llm.requests[0]!.body.messages[0].content as string;
      assert.match(system, /## use_mcp_tool\nDescription: Call a tool of a connected MCP server/);
      assert.match(
        system,
        /# MCP servers\n\n.*\n\n## everything\n\nTools:\n- echo: Echoes back the input string\n {2}Input schema: \{"type":"object","properties":\{"message"/,
      );
      // Auto-approved through the server's autoApprove list: nobody was asked.
      assert.equal(harness.asked.length, 0);
      const events = task.log.events.map((e) => e.type);
      assert.ok(events.includes('tool_result'));
    } finally {
      await environment.dispose();
    }
  });
});
