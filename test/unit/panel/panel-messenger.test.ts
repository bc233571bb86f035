// The host side of the webview protocol, in plain Node: validation, one reply per request,
// snapshots on ready and after the view was hidden, throttled streaming. Timers are mocked, so
// "nothing was sent while hidden" is checked after the throttle has surely passed, not after a sleep.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { Emitter, type Disposable } from '../../../src/panel/event-emitter.js';
import type { RequestHandlers } from '../../../src/panel/message-handlers.js';
import type { PanelChange, PanelSource, StreamingView } from '../../../src/panel/panel-changes.js';
import { PanelMessenger, type WebviewEndpoint } from '../../../src/panel/panel-messenger.js';
import { appendedText, StreamingMessage } from '../../../src/panel/streaming-message.js';
import { initialWebviewState, panelReducer, type WebviewState } from '../../../webview-ui/src/state/panel-reducer.js';
import { parseWebviewMessage } from '../../../src/shared/protocol.js';
import type { HostMessage, McpPanelState, McpServerView, PanelState } from '../../../src/shared/protocol.js';
import { QUIET_PANEL_STATE } from '../../helpers/panel-state-fixture.js';

const STATE: PanelState = QUIET_PANEL_STATE;

/** A webview endpoint that records what is posted; visibility is switched by the test. */
class RecordingEndpoint implements WebviewEndpoint {
  readonly posted: HostMessage[] = [];
  visible = true;
  private readonly received = new Emitter<unknown>();
  private readonly visibility = new Emitter<void>();
  readonly onDidReceiveMessage = this.received.event;
  readonly onDidChangeVisibility = this.visibility.event;
  postMessage(message: HostMessage): Promise<boolean> {
    this.posted.push(message);
    return Promise.resolve(true);
  }
  isVisible(): boolean {
    return this.visible;
  }
  setVisible(visible: boolean): void {
    this.visible = visible;
    this.visibility.fire();
  }
  of<T extends HostMessage['type']>(type: T): Extract<HostMessage, { type: T }>[] {
    return this.posted.filter((m): m is Extract<HostMessage, { type: T }> => m.type === type);
  }
}

const RUNNING_TASK: NonNullable<PanelState['task']> = {
  id: 't',
  messages: [],
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
  mode: 'act',
  modeSlug: 'code',
  status: 'running',
};

/** A panel state source the test drives by hand. */
class ScriptedSource implements PanelSource {
  snapshots = 0;
  stream: StreamingView | undefined;
  inserts: string[] = [];
  private readonly emitter = new Emitter<PanelChange>();
  state: PanelState = STATE;
  snapshot(): PanelState {
    this.snapshots++;
    return this.state;
  }
  streaming(): StreamingView | undefined {
    return this.stream;
  }
  takeInserts(): readonly string[] {
    const taken = this.inserts;
    this.inserts = [];
    return taken;
  }
  onDidChange(listener: (change: PanelChange) => void): Disposable {
    return this.emitter.event(listener);
  }
  change(change: PanelChange): void {
    this.emitter.fire(change);
  }
}

const calls: string[] = [];
const handlers = new Proxy({} as RequestHandlers, {
  get: (_target, type: string) => (message: { text?: string }) => {
    calls.push(type);
    if (message.text === 'fail') throw new Error('the handler failed');
  },
});

/** Moves the mocked clock on, running the timers that come due. */
const sleep = async (ms: number) => {
  mock.timers.tick(ms);
  await Promise.resolve();
};

describe('Panel messenger', () => {
  let endpoint: RecordingEndpoint;
  let source: ScriptedSource;
  let messenger: PanelMessenger;

  beforeEach(async () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    calls.length = 0;
    endpoint = new RecordingEndpoint();
    source = new ScriptedSource();
    messenger = new PanelMessenger(endpoint, source, handlers, { throttleMs: 50 });
    await messenger.receive({ type: 'ready' });
  });

  afterEach(() => {
    messenger.dispose();
    mock.timers.reset();
  });

  it('answers ready with a full snapshot', () => {
    assert.deepEqual(endpoint.posted, [{ type: 'snapshot', state: STATE }]);
  });

  it('replies exactly once to each request: ok, or the handler’s error', async () => {
    await messenger.receive({ type: 'newTask', id: 'r1', text: 'do it' });
    await messenger.receive({ type: 'sendMessage', id: 'r2', text: 'fail' });
    assert.deepEqual(calls, ['newTask', 'sendMessage']);
    assert.deepEqual(endpoint.of('reply'), [
      { type: 'reply', id: 'r1', ok: true },
      { type: 'reply', id: 'r2', ok: false, error: 'the handler failed' },
    ]);
  });

  it('rejects invalid messages before any handler runs', async () => {
    await messenger.receive({ type: 'newTask', id: 'r3' });
    await messenger.receive({ type: 'setMode', id: 'r4', mode: 'turbo' });
    await messenger.receive({ type: 'approve', id: 'r5', callId: 'c', extra: true });
    await messenger.receive({ type: 'noSuchThing', id: 'r6' });
    await messenger.receive('not even an object');
    assert.deepEqual(calls, []);
    const replies = endpoint.of('reply');
    assert.deepEqual(
      replies.map((r) => [r.id, r.ok]),
      [
        ['r3', false],
        ['r4', false],
        ['r5', false],
        ['r6', false],
      ],
    );
    for (const reply of replies) if (!reply.ok) assert.match(reply.error, /Invalid/);
  });

  it('validates every protocol message shape', () => {
    assert.equal(parseWebviewMessage({ type: 'saveSettings', id: 'a', provider: 'gemini', model: 'x', baseUrl: '', toolProtocol: 'xml' }).ok, true);
    assert.equal(
      parseWebviewMessage({ type: 'saveSettings', id: 'a', provider: 'gemini', model: 'x', baseUrl: '', toolProtocol: 'native', apiKey: 'k' }).ok,
      true,
    );
    assert.equal(parseWebviewMessage({ type: 'saveSettings', id: 'a', provider: 'gemini', model: 'x', baseUrl: '', toolProtocol: 'json' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'saveSettings', id: 'a', provider: 'gemini', model: 'x', baseUrl: '' }).ok, false, 'toolProtocol is required');
    assert.equal(parseWebviewMessage({ type: 'showView', id: 'a', view: 'mcp' }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'showView', id: 'a', view: 'nowhere' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'openTask', id: 'a', taskId: '' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'proceedCommand', id: 'a', callId: 'call-3' }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'proceedCommand', id: 'a', callId: '' }).ok, false);
  });

  it('sends message deltas while visible; while hidden only a snapshot when it shows again', async () => {
    const messages = [{ kind: 'user' as const, id: 'e1', seq: 1, text: 'hi', ts: 1 }];
    source.change({ kind: 'messages', taskId: 't', start: 3, messages });
    assert.deepEqual(endpoint.of('taskMessages'), [{ type: 'taskMessages', taskId: 't', start: 3, messages }]);

    endpoint.setVisible(false);
    const before = endpoint.posted.length;
    source.change({ kind: 'messages', taskId: 't', start: 4, messages });
    source.change({ kind: 'state' });
    source.change({ kind: 'commandOutput', taskId: 't1', callId: 'c', text: 'x' });
    source.state = { ...STATE, task: RUNNING_TASK };
    source.stream = { taskId: 't', text: appendedText('streamed'), reasoning: appendedText('') };
    source.change({ kind: 'streaming' });
    await sleep(80);
    assert.equal(endpoint.posted.length, before, 'a hidden view got messages');

    endpoint.setVisible(true);
    assert.deepEqual(endpoint.posted.slice(before), [{ type: 'snapshot', state: source.state, streaming: { text: 'streamed', reasoning: '' } }]);
    endpoint.setVisible(false);
    endpoint.setVisible(true);
    assert.equal(endpoint.of('snapshot').length, 2, 'a second snapshot without anything new');
  });

  it('a snapshot carries what streams now, and nothing once the response is logged or for another task', async () => {
    source.state = { ...STATE, task: RUNNING_TASK };
    source.stream = { taskId: 't', text: appendedText('partial'), reasoning: appendedText('thinking') };
    source.change({ kind: 'state' });
    await sleep(20);
    assert.deepEqual(endpoint.of('snapshot').at(-1)?.streaming, { text: 'partial', reasoning: 'thinking' });
    source.stream = { taskId: 't', text: appendedText(''), reasoning: appendedText('') };
    source.change({ kind: 'state' });
    await sleep(20);
    assert.equal(endpoint.of('snapshot').at(-1)?.streaming, undefined, 'an empty stream is not sent');
    source.stream = { taskId: 'other', text: appendedText('elsewhere'), reasoning: appendedText('') };
    source.change({ kind: 'state' });
    await sleep(20);
    assert.equal(endpoint.of('snapshot').at(-1)?.streaming, undefined, "another task's stream is not sent");
    assert.equal(endpoint.of('streaming').length, 0, 'no separate streaming message follows a snapshot');
  });

  it('coalesces state changes into one snapshot', async () => {
    for (let i = 0; i < 10; i++) source.change({ kind: 'state' });
    await sleep(20);
    assert.equal(endpoint.of('snapshot').length, 2);
  });

  it('throttles streaming and always ends on the latest text', async () => {
    for (let i = 1; i <= 40; i++) {
      source.stream = { taskId: 't', text: appendedText('x'.repeat(i)), reasoning: appendedText('') };
      source.change({ kind: 'streaming' });
      await sleep(5);
    }
    await sleep(80);
    const streamed = endpoint.of('streaming');
    assert.ok(streamed.length < 20, `${streamed.length} streaming messages for 40 updates`);
    assert.equal(streamed.at(-1)!.text, 'x'.repeat(40));
  });

  it('sends a growing streaming message by appending, a snapshot carrying it whole, into a store that ends equal', async () => {
    const message = new StreamingMessage('t:1');
    source.state = { ...STATE, task: RUNNING_TASK };
    source.stream = { taskId: 't', key: message.key, text: message.text, reasoning: message.reasoning };
    let store: WebviewState = panelReducer(initialWebviewState, { type: 'snapshot', state: source.state });
    const parts: HostMessage[] = [];
    const apply = () => {
      for (const posted of endpoint.posted.splice(0)) {
        if (posted.type === 'streaming') parts.push(posted);
        if (posted.type === 'streaming' || posted.type === 'snapshot') store = panelReducer(store, posted);
      }
    };
    endpoint.posted.length = 0;
    message.apply({ kind: 'reasoning', text: 'Let me think. ' });
    message.apply({ kind: 'block_opened', index: 0, block: { kind: 'text', text: '', partial: true } });
    let full = '';
    for (let i = 0; i < 200; i++) {
      const piece = `word${i} `;
      full += piece;
      message.apply({ kind: 'block_appended', index: 0, text: piece });
      source.change({ kind: 'streaming' });
      await sleep(7);
      if (i === 120) {
        // A snapshot replaces the webview's streamed text with the whole message; parts append to it.
        source.change({ kind: 'state' });
        await sleep(1);
        const snapshot = endpoint.of('snapshot').at(-1);
        assert.deepEqual(snapshot?.streaming, { key: 't:1', text: full, reasoning: 'Let me think. ' });
      }
      apply();
    }
    await sleep(80);
    apply();
    assert.deepEqual(store.streaming, { taskId: 't', key: 't:1', text: full, reasoning: 'Let me think. ', since: 0 });
    // Parts sent in steady state carry what was added since the previous one, not the whole text.
    const steady = parts.filter((part) => part.type === 'streaming' && (part.textFrom ?? 0) > 0);
    assert.ok(steady.length > 10, `only ${steady.length} appended parts`);
    for (const part of steady) if (part.type === 'streaming') assert.ok(part.text.length < 200, `a part of ${part.text.length} characters`);
  });

  it('sends the latest MCP state once per burst, before the reply of the request that changed it', async () => {
    const mcp = (status: McpServerView['status']): McpPanelState => ({
      ...STATE.mcp,
      servers: [{ name: 's', status, source: '/f', scope: 'workspace', disabled: status === 'disabled', tools: [], resources: [], resourceTemplates: [] }],
    });
    source.change({ kind: 'mcp', state: mcp('connecting') });
    source.change({ kind: 'mcp', state: mcp('connected') });
    await sleep(20);
    assert.deepEqual(endpoint.of('mcpState'), [{ type: 'mcpState', state: mcp('connected') }]);

    const disabling = { mcpSetDisabled: () => source.change({ kind: 'mcp', state: mcp('disabled') }) } as unknown as RequestHandlers;
    const second = new RecordingEndpoint();
    const other = new PanelMessenger(second, source, disabling);
    try {
      await other.receive({ type: 'ready' });
      await other.receive({ type: 'mcpSetDisabled', id: 'm1', server: 's', disabled: true });
      assert.deepEqual(
        second.posted.slice(1).map((m) => m.type),
        ['mcpState', 'reply'],
      );
    } finally {
      other.dispose();
    }

    endpoint.setVisible(false);
    const before = endpoint.posted.length;
    source.change({ kind: 'mcp', state: mcp('error') });
    await sleep(20);
    assert.equal(endpoint.posted.length, before, 'a hidden view got an mcpState');
    endpoint.setVisible(true);
    assert.equal(endpoint.posted[before]?.type, 'snapshot');
    assert.equal(endpoint.posted.length, before + 1);
  });

  it('hands text for the Task box to one visible webview, once; a hidden one gets it when shown', async () => {
    source.inserts.push('a.ts (line 1):\n```ts\nx\n```');
    source.change({ kind: 'insertText' });
    assert.deepEqual(endpoint.of('insertText'), [{ type: 'insertText', text: 'a.ts (line 1):\n```ts\nx\n```' }]);

    // A second webview listening to the same source finds nothing left to take.
    const second = new RecordingEndpoint();
    const other = new PanelMessenger(second, source, handlers);
    try {
      await other.receive({ type: 'ready' });
      source.inserts.push('b');
      source.change({ kind: 'insertText' });
      assert.equal(endpoint.of('insertText').length + second.of('insertText').length, 2, 'the second text was delivered twice or not at all');
    } finally {
      other.dispose();
    }

    endpoint.setVisible(false);
    const before = endpoint.of('insertText').length;
    source.inserts.push('c');
    source.change({ kind: 'insertText' });
    assert.equal(endpoint.of('insertText').length, before, 'a hidden view got the text');
    assert.deepEqual(source.inserts, ['c'], 'the text left the source without being delivered');
    endpoint.setVisible(true);
    assert.deepEqual(endpoint.of('insertText').at(-1), { type: 'insertText', text: 'c' });
  });

  it('gives a webview that becomes ready the waiting text after its snapshot', async () => {
    const late = new RecordingEndpoint();
    const messenger = new PanelMessenger(late, source, handlers);
    try {
      source.inserts.push('waiting');
      source.change({ kind: 'insertText' });
      endpoint.setVisible(false); // the first webview is elsewhere
      source.inserts.push('waiting too');
      source.change({ kind: 'insertText' });
      await messenger.receive({ type: 'ready' });
      assert.deepEqual(
        late.posted.map((m) => m.type),
        ['snapshot', 'insertText'],
      );
      assert.deepEqual(late.of('insertText'), [{ type: 'insertText', text: 'waiting too' }]);
    } finally {
      messenger.dispose();
    }
  });

  it('batches command output per call and strips escape sequences', async () => {
    source.change({ kind: 'commandOutput', taskId: 't1', callId: 'c1', text: '\x1b[32mgreen\x1b[0m ' });
    source.change({ kind: 'commandOutput', taskId: 't1', callId: 'c1', text: 'line\r\n' });
    await sleep(80);
    assert.deepEqual(endpoint.of('commandOutput'), [{ type: 'commandOutput', taskId: 't1', callId: 'c1', text: 'green line\n' }]);
  });

  it('sends output held back before the messages that follow it, so a result is never overtaken by its own last chunk', () => {
    source.change({ kind: 'commandOutput', taskId: 't1', callId: 'c1', text: 'last chunk\n' });
    const before = endpoint.posted.length;
    source.change({ kind: 'messages', taskId: 't', start: 0, messages: [] });
    assert.deepEqual(
      endpoint.posted.slice(before).map((m) => m.type),
      ['commandOutput', 'taskMessages'],
    );
  });

  it('sends usage, todo list and context changes alone, as they come', () => {
    const progress = {
      usage: { inputTokens: 1200, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 },
      todos: [{ text: 'Read', status: 'in_progress' as const }],
    };
    const before = endpoint.posted.length;
    source.change({ kind: 'progress', taskId: 't', progress });
    assert.deepEqual(endpoint.posted.slice(before), [{ type: 'taskProgress', taskId: 't', progress }]);
  });

  it('a state change a request made arrives (as a snapshot) before the request’s reply', async () => {
    const changing = { setMode: () => source.change({ kind: 'state' }) } as unknown as RequestHandlers;
    const other = new PanelMessenger(endpoint, source, changing);
    try {
      await other.receive({ type: 'ready' });
      const before = endpoint.posted.length;
      await other.receive({ type: 'setMode', id: 's1', mode: 'plan' });
      assert.deepEqual(
        endpoint.posted.slice(before).map((m) => m.type),
        ['snapshot', 'reply'],
      );
    } finally {
      other.dispose();
    }
  });
});
