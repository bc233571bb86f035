// The panel backend with real MCP servers: a server's form reaches the page as part of the MCP
// state, a wrong answer is refused and the form stays, the right one reaches the server; a tool's
// progress reaches its card while it runs, and its structured result is on the card after.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { McpElicitationQueue } from '../../../src/core/mcp/mcp-elicitation-queue.js';
import { McpHub } from '../../../src/core/mcp/mcp-hub.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { mcpTaskWiring } from '../../../src/core/tools/mcp-tools.js';
import { Emitter } from '../../../src/panel/event-emitter.js';
import { mcpPanelState } from '../../../src/panel/mcp-panel-state.js';
import { createMessageHandlers, type McpRequests } from '../../../src/panel/message-handlers.js';
import { PanelMessenger } from '../../../src/panel/panel-messenger.js';
import type { McpPanelSource, PanelProviderSettings } from '../../../src/panel/panel-ports.js';
import { TaskController } from '../../../src/panel/task-controller.js';
import { TransportEndpoint } from '../../../src/panel/transport-endpoint.js';
import { WebviewInteractions } from '../../../src/panel/webview-interactions.js';
import type { HostMessage, ProviderSettingsView, WebviewMessage } from '../../../src/shared/protocol.js';
import { createRequestClient } from '../../../src/shared/request-client.js';
import { createLinkedPair } from '../../../src/shared/transport.js';
import { receiveHostMessage } from '../../../webview-ui/src/state/host-messages.js';
import { initialWebviewState, panelReducer, type WebviewState } from '../../../webview-ui/src/state/panel-reducer.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { configOf, fixtureEntry, npmServerEntry, waitForHub } from '../../fixtures/mcp/mcp-test-support.js';
import { NO_MCP_REQUESTS } from '../../helpers/no-mcp-requests.js';

const SETTINGS: ProviderSettingsView = {
  provider: 'openai-compatible',
  model: 'scripted-model',
  baseUrl: 'http://127.0.0.1',
  toolProtocol: 'xml',
  hasApiKey: true,
  missing: [],
};

function lastUserContent(messages: Array<{ role: string; content: unknown }>): string {
  const content = messages.filter((m) => m.role === 'user').at(-1)!.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

describe('the panel backend with MCP forms and progress', { timeout: 120_000 }, () => {
  const fixture = useTaskFixture();
  let hub: McpHub;
  const queue = new McpElicitationQueue();
  const closers: (() => void)[] = [];

  before(async () => {
    hub = new McpHub({ elicitor: queue.elicit });
    await hub.applyConfig(configOf({ fx: fixtureEntry('--client-features'), everything: npmServerEntry('server-everything') }));
    await waitForHub(hub, () => hub.servers().every((s) => s.status === 'connected'), 30_000, 'both servers');
  });
  after(() => hub.dispose());
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  function openPanel() {
    const harness = new ToolHarness(fixture.ws.root);
    const interactions = new WebviewInteractions(
      { streamPartial: () => {}, present: async () => {}, accept: async () => ({}), reject: async () => {}, discard: async () => {} },
      () => fixture.ws.root,
    );
    const host = { ...harness.host, approvals: interactions.approvals, questions: interactions.questions, notify: () => {} };
    const changed = new Emitter<void>();
    const offHub = hub.onChange(() => changed.fire());
    const offQueue = queue.onChange(() => changed.fire());
    const wiring = mcpTaskWiring(hub);
    const mcp: McpPanelSource = {
      wiring,
      hub,
      panelState: () => mcpPanelState({ servers: hub.servers(), problems: hub.configProblems(), sources: [], elicitations: queue.pending() }),
      onDidChange: changed.event,
    };
    const requests: McpRequests = { ...NO_MCP_REQUESTS, answerElicitation: (id, answer) => queue.answer(id, answer) };
    const settingsChanged = new Emitter<void>();
    const settings: PanelProviderSettings = {
      basics: () => SETTINGS,
      view: async () => SETTINGS,
      save: async () => {},
      listModels: async () => {
        throw new Error('not listed here');
      },
      disabledRules: () => [],
      saveDisabledRules: async () => {},
      autoApprove: () => ({ readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: true, maxRequests: 25 }),
      saveAutoApprove: async () => {},
      onDidChange: settingsChanged.event,
      createEnvironment: async () =>
        fixture.environment(
          createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl }),
          host,
          {
            extraTools: wiring.tools,
            extraPromptSections: wiring.promptSections,
            hiddenTools: wiring.hiddenTools,
            waitForTools: wiring.ready,
          },
        ),
    };
    const controller = new TaskController({
      storageDir: fixture.storage,
      cwd: () => fixture.ws.root,
      host,
      settings,
      interactions,
      edits: { streamPartial: () => {}, present: async () => {}, accept: async () => ({}), reject: async () => {}, discard: async () => {} },
      mcp,
      saveExport: async () => {},
      checkpointViews: { showChanges: async () => {}, confirm: async () => false, openFile: async () => {} },
    });
    const [pageEnd, hostEnd] = createLinkedPair<WebviewMessage, HostMessage>();
    const messenger = new PanelMessenger(new TransportEndpoint(hostEnd), controller, createMessageHandlers(controller, requests), {
      throttleMs: 0,
    });
    const client = createRequestClient((message) => pageEnd.send(message));
    const page = { state: initialWebviewState as WebviewState, problems: [] as string[], output: [] as { callId: string; text: string }[] };
    const arrived = new Emitter<void>();
    pageEnd.onMessage((data) => {
      const message = receiveHostMessage(data, client, (problem) => page.problems.push(problem));
      if (message?.type === 'commandOutput') page.output.push({ callId: message.callId, text: message.text });
      if (message) page.state = panelReducer(page.state, message);
      arrived.fire();
    });
    const until = (ready: () => boolean, what: string) =>
      new Promise<void>((resolve) => {
        if (ready()) return resolve();
        const subscription = arrived.event(() => {
          if (!ready()) return;
          subscription.dispose();
          resolve();
        });
      }).then(() => assert.ok(ready(), what));
    closers.push(() => {
      offHub();
      offQueue();
      client.dispose();
      pageEnd.close();
      messenger.dispose();
      controller.dispose();
      interactions.dispose();
    });
    pageEnd.send({ type: 'ready' });
    return { page, client, until };
  }

  test('a form reaches the page with its fields; a wrong answer is refused and the form stays; the right one reaches the server', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    let toolResult = '';
    fixture.server.enqueue({ text: '<use_mcp_tool>\n<server_name>fx</server_name>\n<tool_name>ask</tool_name>\n</use_mcp_tool>' }, (request) => {
      toolResult = lastUserContent(request.body.messages);
      return { text: '<attempt_completion>\n<result>Thanks.</result>\n</attempt_completion>' };
    });
    await panel.client.request({ type: 'newTask', text: 'Ask me' });
    await panel.until(() => (panel.page.state.panel?.mcp.elicitations?.length ?? 0) > 0, 'the form on the page');
    const form = panel.page.state.panel!.mcp.elicitations![0]!;
    assert.equal(form.server, 'fx');
    assert.equal(form.message, 'Tell the fixture about yourself.');
    assert.deepEqual(
      form.fields.map((f) => [f.name, f.kind, f.required]),
      [
        ['name', 'text', true],
        ['age', 'number', false],
        ['agree', 'boolean', false],
      ],
    );

    await assert.rejects(
      panel.client.request({ type: 'mcpAnswerElicitation', elicitationId: form.id, action: 'accept', content: { age: 200 } }),
      /does not match the form: .*name: required.*age: at most 150/,
    );
    assert.equal(panel.page.state.panel!.mcp.elicitations?.length, 1, 'the form stays');

    await panel.client.request({ type: 'mcpAnswerElicitation', elicitationId: form.id, action: 'accept', content: { name: 'Ada', age: 36, agree: true } });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(panel.page.state.panel!.mcp.elicitations, undefined, 'the form is gone');
    assert.match(toolResult, /elicitation accept \{"name":"Ada","age":36,"agree":true\}/, toolResult);
    assert.deepEqual(panel.page.problems, []);
  });

  test("a tool's progress reaches the page while it runs; a structured result is on its card", async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(
      {
        text: '<use_mcp_tool>\n<server_name>everything</server_name>\n<tool_name>trigger-long-running-operation</tool_name>\n<arguments>{"duration": 0.9, "steps": 3}</arguments>\n</use_mcp_tool>',
      },
      { text: '<use_mcp_tool>\n<server_name>fx</server_name>\n<tool_name>weather</tool_name>\n</use_mcp_tool>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    await panel.client.request({ type: 'newTask', text: 'Run long' });
    await panel.until(() => panel.page.output.some((o) => /Progress 2\/3 \(67%\)/.test(o.text)), 'progress on the page');
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    const tools = panel.page.state.panel!.task!.messages.filter((m) => m.kind === 'tool');
    const long = tools.find((m) => m.kind === 'tool' && m.params.tool_name === 'trigger-long-running-operation');
    assert.ok(long?.kind === 'tool');
    assert.ok(panel.page.output.every((o) => o.callId === long.callId));
    assert.match(panel.page.output.map((o) => o.text).join(''), /Progress 1\/3 \(33%\)\nProgress 2\/3 \(67%\)/);
    const weather = tools.find((m) => m.kind === 'tool' && m.params.tool_name === 'weather');
    assert.ok(weather?.kind === 'tool');
    assert.deepEqual(JSON.parse(weather.details?.mcp?.structured ?? '{}'), { temperature: 21, sky: 'clear' });
    assert.match(weather.output ?? '', /Structured result \(JSON\):\n\{\n {2}"temperature": 21/);
  });
});
