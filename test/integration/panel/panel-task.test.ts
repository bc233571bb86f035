// The panel backend runs a real task without VS Code: the webview's request client talks to the
// TaskController through the in-memory transport, the model is the scripted server, and the
// webview's reducer renders what the host sends (every message validated by the protocol schema).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { DEFAULT_POLICY } from '../../../src/core/task/approval-policy.js';
import { Emitter } from '../../../src/panel/events.js';
import { createMessageHandlers, type McpRequests } from '../../../src/panel/message-handlers.js';
import { PanelMessenger } from '../../../src/panel/panel-messenger.js';
import type { EditReview, PanelProviderSettings } from '../../../src/panel/ports.js';
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

const SETTINGS: ProviderSettingsView = { provider: 'openai-compatible', model: 'scripted-model', baseUrl: 'http://127.0.0.1', toolProtocol: 'xml', hasApiKey: true, missing: [] };
const NO_MCP: McpRequests = {
  restart: async () => {},
  setDisabled: async () => {},
  setAutoApprove: async () => {},
  openConfig: async () => {},
  showLog: async () => {},
};

describe('the panel backend in plain Node', () => {
  const fixture = useTaskFixture();
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  function openPanel() {
    const harness = new ToolHarness(fixture.ws.root);
    const reviews: string[] = [];
    const edits: EditReview = {
      streamPartial: () => {},
      present: async (path) => void reviews.push(`present ${path}`),
      accept: async (path) => {
        reviews.push(`accept ${path}`);
        return {};
      },
      reject: async (path) => void reviews.push(`reject ${path}`),
      discard: async () => {},
    };
    const interactions = new WebviewInteractions(edits, () => fixture.ws.root);
    const host = { ...harness.host, approvals: interactions.approvals, questions: interactions.questions };
    const settingsChanged = new Emitter<void>();
    const settings: PanelProviderSettings = {
      basics: () => SETTINGS,
      view: async () => SETTINGS,
      save: async () => settingsChanged.fire(),
      onDidChange: settingsChanged.event,
      createEnvironment: async () => {
        const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl });
        return fixture.environment(provider, host, { policy: DEFAULT_POLICY });
      },
    };
    const exported: { name: string; markdown: string }[] = [];
    const controller = new TaskController({
      storageDir: fixture.storage,
      cwd: () => fixture.ws.root,
      host,
      settings,
      interactions,
      edits,
      saveExport: async (name, markdown) => void exported.push({ name, markdown }),
    });
    const [pageEnd, hostEnd] = createLinkedPair<WebviewMessage, HostMessage>();
    const messenger = new PanelMessenger(new TransportEndpoint(hostEnd), controller, createMessageHandlers(controller, interactions, NO_MCP), { throttleMs: 0 });
    const client = createRequestClient((message) => pageEnd.send(message));
    const page = { state: initialWebviewState as WebviewState, problems: [] as string[] };
    const arrived = new Emitter<void>();
    pageEnd.onMessage((data) => {
      const message = receiveHostMessage(data, client, (problem) => page.problems.push(problem));
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
      client.dispose();
      pageEnd.close();
      messenger.dispose();
      controller.dispose();
      interactions.dispose();
    });
    pageEnd.send({ type: 'ready' });
    return { page, client, until, reviews, exported };
  }

  test('a task sent from the page asks for its edit, runs when approved, and the page shows the result', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(
      { text: '<write_to_file>\n<path>hello.txt</path>\n<content>Hello\n</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>Wrote hello.txt.</result>\n</attempt_completion>' },
    );
    await panel.client.request({ type: 'newTask', text: 'Create hello.txt' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'an approval request');
    const pending = panel.page.state.panel!.task!.pendingApproval!;
    assert.equal(pending.tool, 'write_to_file');
    assert.equal(pending.path, 'hello.txt');
    assert.match(pending.diff ?? '', /\+Hello/);

    await panel.client.request({ type: 'approve', callId: pending.callId });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(fixture.ws.read('hello.txt'), 'Hello\n');
    const messages = panel.page.state.panel!.task!.messages;
    assert.deepEqual(
      messages.map((m) => (m.kind === 'tool' ? m.tool : m.kind)),
      ['task', 'write_to_file', 'attempt_completion', 'completion'],
      JSON.stringify(messages),
    );
    const tool = messages[1]!;
    assert.ok(tool.kind === 'tool' && tool.status === 'done' && tool.details?.edit?.created === true, JSON.stringify(tool));
    assert.deepEqual(panel.reviews, [`present ${fixture.ws.root}/hello.txt`, `accept ${fixture.ws.root}/hello.txt`]);
    assert.deepEqual(panel.page.problems, []);

    await panel.client.request({ type: 'exportTask', taskId: panel.page.state.panel!.task!.id });
    assert.match(panel.exported[0]?.markdown ?? '', /Wrote hello\.txt\./);
  });

  test('a rejection with feedback reaches the model once, and errors come back as rejected requests', async () => {
    const panel = openPanel();
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await assert.rejects(panel.client.request({ type: 'retry' }), /no task to retry/i);
    fixture.server.enqueue(
      { text: '<write_to_file>\n<path>a.txt</path>\n<content>A\n</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>Left it.</result>\n</attempt_completion>' },
    );
    await panel.client.request({ type: 'newTask', text: 'Create a.txt' });
    await panel.until(() => panel.page.state.panel?.task?.pendingApproval !== undefined, 'an approval request');
    const callId = panel.page.state.panel!.task!.pendingApproval!.callId;
    await panel.client.request({ type: 'reject', callId, feedback: 'Not now' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    assert.equal(existsSync(join(fixture.ws.root, 'a.txt')), false);
    const tool = panel.page.state.panel!.task!.messages.find((m) => m.kind === 'tool');
    assert.ok(tool?.kind === 'tool' && tool.status === 'rejected' && tool.feedback === 'Not now', JSON.stringify(tool));
    const second = JSON.stringify(fixture.server.requestAt(1).body);
    assert.equal(second.split('Not now').length - 1, 1, 'the feedback appears once in the next request');
  });
});
