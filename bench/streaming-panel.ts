// One task run through the panel backend in process, as the panel tests wire it: the webview's
// request client and reducer on one end of the in-memory transport, the TaskController and
// PanelMessenger on the other, the model the scripted server streaming a reply in chunks.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProvider } from '../src/core/providers/create-provider.js';
import { SecretRedactor } from '../src/core/secrets/secret-redactor.js';
import { createTaskEnvironment } from '../src/core/session/task-environment.js';
import { APPROVE_ALL_POLICY } from '../src/core/log/approval-policy.js';
import type { TaskOutcome } from '../src/core/task/task-types.js';
import { Emitter } from '../src/panel/event-emitter.js';
import { createMessageHandlers } from '../src/panel/message-handlers.js';
import { PanelMessenger } from '../src/panel/panel-messenger.js';
import type { CheckpointViews, EditReview, PanelProviderSettings } from '../src/panel/panel-ports.js';
import { TaskController } from '../src/panel/task-controller.js';
import { TransportEndpoint } from '../src/panel/transport-endpoint.js';
import { WebviewInteractions } from '../src/panel/webview-interactions.js';
import type { AutoApproveView, HostMessage, ProviderSettingsView, WebviewMessage } from '../src/shared/protocol.js';
import { createRequestClient } from '../src/shared/request-client.js';
import { createLinkedPair } from '../src/shared/transport.js';
import { startScriptedLlmServer } from '../test/fixtures/scripted-llm-server.js';
import { ToolHarness } from '../test/helpers/tool-harness.js';
import { receiveHostMessage } from '../webview-ui/src/state/host-messages.js';
import { initialWebviewState, panelReducer, type WebviewState } from '../webview-ui/src/state/panel-reducer.js';
import { NO_MCP_REQUESTS } from '../test/helpers/no-mcp-requests.js';

const AUTO_APPROVE: AutoApproveView = { readFiles: true, editFiles: true, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 };

/**
 * Runs a task whose first reply is `text` (in `chunkSize`-character chunks, or one) and whose
 * second completes it, through the panel backend into the webview's store; resolves when it ends.
 */
export async function runPanelStream(text: string, chunkSize: number | undefined, apiKey: string): Promise<WebviewState> {
  const ws = mkdtempSync(join(tmpdir(), 'smith-bench-panel-ws-'));
  const storage = mkdtempSync(join(tmpdir(), 'smith-bench-panel-st-'));
  const server = await startScriptedLlmServer();
  const harness = new ToolHarness(ws);
  const edits: EditReview = {
    streamPartial: () => {},
    present: async () => {},
    accept: async () => ({}),
    reject: async () => {},
    discard: async () => {},
  };
  const interactions = new WebviewInteractions(edits, () => ws);
  const host = { ...harness.host, approvals: interactions.approvals, questions: interactions.questions, notify: () => {} };
  const view: ProviderSettingsView = {
    provider: 'openai-compatible',
    model: 'scripted-model',
    baseUrl: server.openAiBaseUrl,
    toolProtocol: 'xml',
    hasApiKey: true,
    missing: [],
  };
  const redactor = new SecretRedactor();
  redactor.set('provider', [apiKey]);
  const settings: PanelProviderSettings = {
    basics: () => view,
    view: async () => view,
    save: async () => {},
    listModels: async () => {
      throw new Error('not listed in the benchmark');
    },
    disabledRules: () => [],
    saveDisabledRules: async () => {},
    autoApprove: () => AUTO_APPROVE,
    saveAutoApprove: async () => {},
    onDidChange: new Emitter<void>().event,
    createEnvironment: async () =>
      createTaskEnvironment({
        cwd: ws,
        storageDir: storage,
        host,
        provider: createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey, baseUrl: server.openAiBaseUrl }),
        policy: APPROVE_ALL_POLICY,
        maxIterations: 5,
        checkpoints: { enabled: false },
        redactor,
      }),
  };
  const checkpointViews: CheckpointViews = { showChanges: async () => {}, confirm: async () => false, openFile: async () => {} };
  const controller = new TaskController({
    storageDir: storage,
    cwd: () => ws,
    host,
    settings,
    interactions,
    edits,
    saveExport: async () => {},
    checkpointViews,
  });
  const [pageEnd, hostEnd] = createLinkedPair<WebviewMessage, HostMessage>();
  const messenger = new PanelMessenger(new TransportEndpoint(hostEnd), controller, createMessageHandlers(controller, NO_MCP_REQUESTS));
  const client = createRequestClient((message) => pageEnd.send(message));
  let state: WebviewState = initialWebviewState;
  pageEnd.onMessage((data) => {
    const message = receiveHostMessage(data, client, () => {});
    if (message) state = panelReducer(state, message);
  });
  try {
    server.enqueue({ text, ...(chunkSize ? { chunkSize } : {}) }, { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' });
    const ended = new Promise<TaskOutcome>((resolve) => controller.onTaskEnded((end) => resolve(end.outcome)));
    pageEnd.send({ type: 'ready' });
    await client.request({ type: 'newTask', text: 'Write the big module' });
    const outcome = await ended;
    assert.equal(outcome.status, 'completed', JSON.stringify(outcome));
    return state;
  } finally {
    client.dispose();
    pageEnd.close();
    messenger.dispose();
    controller.dispose();
    interactions.dispose();
    await server.close();
    rmSync(ws, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  }
}
