// The panel backend and the webview's side of the protocol together in one process, over the
// in-memory transport pair: requests, replies, snapshots, validation in both directions, timeouts.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Emitter } from '../../../src/panel/event-emitter.js';
import type { RequestHandlers } from '../../../src/panel/message-handlers.js';
import type { PanelChange, PanelSource } from '../../../src/panel/panel-changes.js';
import { PanelMessenger } from '../../../src/panel/panel-messenger.js';
import { TransportEndpoint } from '../../../src/panel/transport-endpoint.js';
import { parseHostMessage, type HostMessage, type PanelState, type WebviewMessage } from '../../../src/shared/protocol.js';
import { createRequestClient, type RequestClient } from '../../../src/shared/request-client.js';
import { createLinkedPair, type Transport } from '../../../src/shared/transport.js';
import { receiveHostMessage } from '../../../webview-ui/src/state/host-messages.js';
import { initialWebviewState, panelReducer, type WebviewState } from '../../../webview-ui/src/state/panel-reducer.js';

const STATE: PanelState = {
  view: 'chat',
  settings: { provider: 'openai', model: 'gpt-4.1', baseUrl: '', toolProtocol: 'xml', hasApiKey: true },
  history: [{ taskId: 't1', task: 'Fix it', startedAt: 1, updatedAt: 2, status: 'completed' }],
  modes: [{ slug: 'code', name: 'Code' }],
  mode: 'act',
  modeSlug: 'code',
  mcp: { servers: [], problems: [], configFiles: { global: '/s/mcp_settings.json' } },
  autoApprove: { readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 },
};

class Source implements PanelSource {
  readonly changes = new Emitter<PanelChange>();
  snapshot = () => STATE;
  streaming = () => undefined;
  takeInserts = () => [];
  onDidChange = (listener: (change: PanelChange) => void) => this.changes.event(listener);
}

/** The webview's half: validates host messages, settles requests, folds the rest into its state. */
class Page {
  state: WebviewState = initialWebviewState;
  readonly problems: string[] = [];
  readonly client: RequestClient;
  private arrived = new Emitter<void>();
  constructor(
    readonly transport: Transport<unknown, WebviewMessage>,
    timeoutMs?: number,
  ) {
    this.client = createRequestClient((message) => transport.send(message), { prefix: 'page', ...(timeoutMs ? { timeoutMs } : {}) });
    transport.onMessage((data) => {
      const message = receiveHostMessage(data, this.client, (problem) => this.problems.push(problem));
      if (message) this.state = panelReducer(this.state, message);
      this.arrived.fire();
    });
  }
  /** Resolves once `ready()` holds, checked after every message that arrives. */
  until(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => {
      const subscription = this.arrived.event(() => {
        if (!ready()) return;
        subscription.dispose();
        resolve();
      });
    });
  }
}

describe('panel backend ↔ webview over an in-memory transport', () => {
  let page: Page;
  let messenger: PanelMessenger;
  let calls: { type: string; text?: string }[];
  let hang: Promise<void>;
  let release: () => void;

  const handlers = new Proxy({} as RequestHandlers, {
    get: (_target, type: string) => async (message: { text?: string }) => {
      calls.push({ type, ...(message.text !== undefined ? { text: message.text } : {}) });
      if (message.text === 'fail') throw new Error('No provider is set up.');
      if (message.text === 'hang') await hang;
    },
  });

  function connect(timeoutMs?: number): void {
    const [pageEnd, hostEnd] = createLinkedPair<WebviewMessage, HostMessage>();
    messenger = new PanelMessenger(new TransportEndpoint(hostEnd), new Source(), handlers);
    page = new Page(pageEnd, timeoutMs);
  }

  beforeEach(() => {
    calls = [];
    hang = new Promise((resolve) => (release = resolve));
  });
  afterEach(() => {
    release();
    page.client.dispose();
    page.transport.close();
    messenger.dispose();
  });

  test('ready brings a snapshot the webview validates and renders', async () => {
    connect();
    page.transport.send({ type: 'ready' });
    await page.until(() => page.state.panel !== undefined);
    assert.deepEqual(page.state.panel, STATE);
    assert.deepEqual(page.problems, []);
  });

  test('a request resolves on its reply, a failing one rejects with the host’s error', async () => {
    connect();
    await page.client.request({ type: 'newTask', text: 'Add a test' });
    await assert.rejects(page.client.request({ type: 'sendMessage', text: 'fail' }), /No provider is set up\./);
    assert.deepEqual(calls, [
      { type: 'newTask', text: 'Add a test' },
      { type: 'sendMessage', text: 'fail' },
    ]);
  });

  test('a request the host refuses as invalid rejects with the validation error and runs no handler', async () => {
    connect();
    // What a buggy webview could send: the client adds the id, the host's schema refuses the rest.
    await assert.rejects(page.client.request({ type: 'setMode', mode: 'turbo' } as never), /Invalid "setMode" message: mode/);
    assert.deepEqual(calls, []);
  });

  test('a host that never answers fails the request after its timeout; the late reply is ignored', async () => {
    connect(200);
    await assert.rejects(page.client.request({ type: 'sendMessage', text: 'hang' }), /did not answer "sendMessage"/);
    release();
    await page.until(() => calls.length === 1);
    assert.deepEqual(page.problems, []);
  });

  test('the webview refuses a host message of the wrong shape and keeps its state', async () => {
    connect();
    page.transport.send({ type: 'ready' });
    await page.until(() => page.state.panel !== undefined);
    const before = page.state;
    // A message straight through the page's receiver, as a broken host would post it.
    const bad = [
      { type: 'taskMessages', taskId: 't', start: -1, messages: [] },
      { type: 'snapshot', state: { ...STATE, settings: undefined } },
      { type: 'taskMessages', taskId: 't', start: 0, messages: [{ kind: 'tool', id: 'x', callId: 'c', tool: 't', params: {}, status: 'exploded', ts: 1 }] },
      { type: 'reply', id: 'page-1', ok: false },
    ];
    for (const message of bad)
      assert.equal(
        receiveHostMessage(message, page.client, (p) => page.problems.push(p)),
        undefined,
      );
    assert.equal(page.problems.length, bad.length, page.problems.join('\n'));
    assert.match(page.problems[0]!, /Invalid "taskMessages" message: start/);
    assert.equal(page.state, before);
    // Other pages' messages (no string type) are ignored silently.
    assert.equal(
      receiveHostMessage({ command: 'vscode-internal' }, page.client, (p) => page.problems.push(p)),
      undefined,
    );
    assert.equal(page.problems.length, bad.length);
  });

  test('everything the messenger posts passes the webview’s schema', () => {
    const samples: HostMessage[] = [
      { type: 'snapshot', state: STATE },
      { type: 'streaming', taskId: 't', text: 'Hi', reasoning: '' },
      { type: 'commandOutput', callId: 'c', text: 'ok\n' },
      { type: 'mcpState', state: STATE.mcp },
      { type: 'insertText', text: 'x' },
      { type: 'reply', id: 'r', ok: true },
      { type: 'reply', id: 'r', ok: false, error: 'e' },
    ];
    for (const sample of samples) assert.deepEqual(parseHostMessage(sample), { ok: true, message: sample });
  });

  test('a message that could not cross a real postMessage (a function) fails the request instead of vanishing', async () => {
    connect();
    await assert.rejects(page.client.request({ type: 'newTask', text: (() => 'x') as never }), /could not be cloned|DataCloneError/);
  });
});
