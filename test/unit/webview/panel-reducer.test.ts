import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { McpPanelState, McpServerView, PanelState, TaskView } from '../../../src/shared/protocol.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { initialWebviewState, LIVE_OUTPUT_CAP, panelReducer, type WebviewState } from '../../../webview-ui/src/state/panel-reducer.js';

const ts = 1;
const msg = (id: string, text = id): UiMessage => ({ kind: 'notice', id, text, ts });
const tool = (id: string, callId: string, status: 'running' | 'done'): UiMessage => ({
  kind: 'tool',
  id,
  callId,
  tool: 'execute_command',
  params: { command: 'ls' },
  status,
  ts,
});

function task(messages: UiMessage[], overrides: Partial<TaskView> = {}): TaskView {
  return {
    id: 'task-1',
    messages,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    mode: 'act',
    modeSlug: 'default',
    status: 'running',
    ...overrides,
  };
}

const NO_MCP: McpPanelState = { servers: [], problems: [], configFiles: { global: '/storage/mcp_settings.json' } };

function panel(t: TaskView | undefined, mcp: McpPanelState = NO_MCP): PanelState {
  return {
    view: 'chat',
    task: t,
    settings: { provider: 'openai', model: 'm', baseUrl: '', toolProtocol: 'xml', hasApiKey: false },
    history: [],
    modes: [],
    mode: 'act',
    modeSlug: 'default',
    mcp,
    autoApprove: { readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 },
  };
}

function server(name: string, overrides: Partial<McpServerView> = {}): McpServerView {
  return {
    name,
    status: 'connected',
    source: '/ws/.smith/mcp.json',
    scope: 'workspace',
    disabled: false,
    transport: 'stdio',
    tools: [],
    resources: [],
    resourceTemplates: [],
    ...overrides,
  };
}

function withTask(t: TaskView): WebviewState {
  return panelReducer(initialWebviewState, { type: 'snapshot', state: panel(t) });
}

describe('panelReducer', () => {
  test('a snapshot replaces the panel state', () => {
    const state = withTask(task([msg('a')]));
    assert.equal(state.panel?.task?.messages.length, 1);
    const next = panelReducer(state, { type: 'snapshot', state: panel(undefined) });
    assert.equal(next.panel?.task, undefined);
  });

  test('taskMessages replaces messages from start and keeps the head identical', () => {
    const head = msg('a');
    const state = withTask(task([head, msg('b'), msg('c')]));
    const next = panelReducer(state, { type: 'taskMessages', taskId: 'task-1', start: 1, messages: [msg('b', 'B'), msg('d')] });
    assert.deepEqual(
      next.panel?.task?.messages.map((m) => (m.kind === 'notice' ? m.text : '')),
      ['a', 'B', 'd'],
    );
    assert.equal(next.panel?.task?.messages[0], head, 'unchanged messages keep their identity (memoised rows)');
    assert.equal(next.panel?.settings, state.panel?.settings);
  });

  test('taskMessages appends when start is the current length, and ignores other tasks', () => {
    const state = withTask(task([msg('a')]));
    const appended = panelReducer(state, { type: 'taskMessages', taskId: 'task-1', start: 1, messages: [msg('b')] });
    assert.equal(appended.panel?.task?.messages.length, 2);
    assert.equal(panelReducer(state, { type: 'taskMessages', taskId: 'other', start: 0, messages: [] }), state);
    assert.equal(panelReducer(initialWebviewState, { type: 'taskMessages', taskId: 'task-1', start: 0, messages: [msg('x')] }), initialWebviewState);
  });

  test('streaming is kept for the open task and ignored for others', () => {
    const state = withTask(task([msg('a')]));
    const streaming = panelReducer(state, { type: 'streaming', taskId: 'task-1', text: 'Hel', reasoning: '' });
    assert.deepEqual(streaming.streaming, { taskId: 'task-1', text: 'Hel', reasoning: '', since: 1 });
    assert.equal(panelReducer(state, { type: 'streaming', taskId: 'other', text: 'x', reasoning: '' }), state);
  });

  test('streaming clears when a new assistant or tool message arrives, not on other updates', () => {
    const state = panelReducer(withTask(task([msg('a')])), { type: 'streaming', taskId: 'task-1', text: 'Hello', reasoning: 'r' });
    const notice = panelReducer(state, { type: 'taskMessages', taskId: 'task-1', start: 1, messages: [msg('n')] });
    assert.ok(notice.streaming !== undefined, 'a notice does not end the stream');
    const assistant = panelReducer(state, {
      type: 'taskMessages',
      taskId: 'task-1',
      start: 1,
      messages: [{ kind: 'assistant', id: 'as', text: 'Hello', reasoning: 'r', ts }],
    });
    assert.equal(assistant.streaming, undefined);
    const toolCard = panelReducer(state, { type: 'taskMessages', taskId: 'task-1', start: 1, messages: [tool('t', 'c1', 'running')] });
    assert.equal(toolCard.streaming, undefined);
  });

  test('a streamed message grows by appending parts of the same key; a part it cannot place is ignored', () => {
    const state = withTask(task([msg('a')]));
    const first = panelReducer(state, { type: 'streaming', taskId: 'task-1', key: 'k1', text: 'Hel', reasoning: 'r' });
    const grown = panelReducer(first, { type: 'streaming', taskId: 'task-1', key: 'k1', textFrom: 3, text: 'lo', reasoningFrom: 1, reasoning: 'ea' });
    assert.deepEqual(grown.streaming, { taskId: 'task-1', key: 'k1', text: 'Hello', reasoning: 'rea', since: 1 });
    // A part of another message, or past the end of the text held, is not glued onto this one.
    assert.equal(panelReducer(grown, { type: 'streaming', taskId: 'task-1', key: 'k2', textFrom: 5, text: 'x', reasoning: '' }), grown);
    assert.equal(panelReducer(grown, { type: 'streaming', taskId: 'task-1', key: 'k1', textFrom: 9, text: 'x', reasoning: '' }), grown);
    // A whole message of a new key replaces it.
    const next = panelReducer(grown, { type: 'streaming', taskId: 'task-1', key: 'k2', text: 'New', reasoning: '' });
    assert.deepEqual(next.streaming, { taskId: 'task-1', key: 'k2', text: 'New', reasoning: '', since: 1 });
  });

  test('an update of an existing tool card does not end a stream', () => {
    const running = tool('t', 'c1', 'running');
    const state = panelReducer(withTask(task([msg('a'), running])), { type: 'streaming', taskId: 'task-1', text: 'next', reasoning: '' });
    const next = panelReducer(state, { type: 'taskMessages', taskId: 'task-1', start: 1, messages: [tool('t', 'c1', 'done')] });
    assert.ok(next.streaming !== undefined);
  });

  test('a snapshot says what streams: its streamed text replaces the old, and without one the stream ends', () => {
    const state = panelReducer(withTask(task([msg('a')])), { type: 'streaming', taskId: 'task-1', text: 'Hello', reasoning: '' });
    const carried = panelReducer(state, { type: 'snapshot', state: panel(task([msg('a')])), streaming: { text: 'Hello wor', reasoning: '' } });
    assert.deepEqual(carried.streaming, { taskId: 'task-1', text: 'Hello wor', reasoning: '', since: 1 });
    // The response was logged between two streaming messages: the snapshot holds it, and it must not show twice.
    const logged = panelReducer(state, { type: 'snapshot', state: panel(task([msg('a'), msg('answer', 'Hello world')])) });
    assert.equal(logged.streaming, undefined);
    assert.equal(panelReducer(state, { type: 'snapshot', state: panel(task([msg('a')], { status: 'awaiting_approval' })) }).streaming, undefined);
    const other = panelReducer(state, { type: 'snapshot', state: panel(task([msg('a')], { id: 'task-2' })), streaming: { text: 'x', reasoning: '' } });
    assert.equal(other.streaming?.taskId, 'task-2', "a snapshot's stream belongs to the task it shows");
  });

  test('each response stream is told from the next by the messages logged before it began', () => {
    let state = panelReducer(withTask(task([msg('a')])), { type: 'streaming', taskId: 'task-1', text: 'One', reasoning: '' });
    state = panelReducer(state, { type: 'streaming', taskId: 'task-1', text: 'One two', reasoning: '' });
    assert.equal(state.streaming?.since, 1, 'the same stream keeps its start');
    state = panelReducer(state, {
      type: 'taskMessages',
      taskId: 'task-1',
      start: 1,
      messages: [{ kind: 'assistant', id: 'r1', text: 'One two', reasoning: '', ts }],
    });
    assert.equal(state.streaming, undefined, 'the logged message ends the stream');
    state = panelReducer(state, { type: 'streaming', taskId: 'task-1', text: 'Next', reasoning: '' });
    assert.equal(state.streaming?.since, 2, 'the next response is a new stream');
  });

  test('commandOutput appends per call and keeps only the tail beyond the cap', () => {
    let state = withTask(task([tool('t', 'c1', 'running')]));
    state = panelReducer(state, { type: 'commandOutput', callId: 'c1', text: 'one\n' });
    state = panelReducer(state, { type: 'commandOutput', callId: 'c1', text: 'two\n' });
    state = panelReducer(state, { type: 'commandOutput', callId: 'c2', text: 'other' });
    assert.deepEqual(state.liveOutput, { c1: 'one\ntwo\n', c2: 'other' });
    state = panelReducer(state, { type: 'commandOutput', callId: 'c1', text: `${'x'.repeat(LIVE_OUTPUT_CAP)}END` });
    assert.equal(state.liveOutput.c1!.length, LIVE_OUTPUT_CAP);
    assert.ok(state.liveOutput.c1!.endsWith('END'));
  });

  test('live output of a finished command is dropped; its card has the logged output', () => {
    let state = withTask(task([tool('t1', 'c1', 'running'), tool('t2', 'c2', 'running')]));
    state = panelReducer(state, { type: 'commandOutput', callId: 'c1', text: 'a' });
    state = panelReducer(state, { type: 'commandOutput', callId: 'c2', text: 'b' });
    const updated = panelReducer(state, {
      type: 'taskMessages',
      taskId: 'task-1',
      start: 0,
      messages: [tool('t1', 'c1', 'done'), tool('t2', 'c2', 'running')],
    });
    assert.deepEqual(updated.liveOutput, { c2: 'b' });
    const snap = panelReducer(state, { type: 'snapshot', state: panel(task([tool('t1', 'c1', 'running'), tool('t2', 'c2', 'done')])) });
    assert.deepEqual(snap.liveOutput, { c1: 'a' });
  });

  test('replies leave the state untouched', () => {
    const state = withTask(task([]));
    assert.equal(panelReducer(state, { type: 'reply', id: 'x', ok: true }), state);
    assert.equal(panelReducer(state, { type: 'reply', id: 'x', ok: false, error: 'no' }), state);
  });

  test('mcpState replaces only the MCP part and keeps the task, streaming and output', () => {
    let state = withTask(task([tool('t', 'c1', 'running')]));
    state = panelReducer(state, { type: 'streaming', taskId: 'task-1', text: 'Hel', reasoning: '' });
    state = panelReducer(state, { type: 'commandOutput', callId: 'c1', text: 'out' });
    const mcp: McpPanelState = {
      ...NO_MCP,
      servers: [server('fixture', { tools: [{ name: 'add', description: 'Add two numbers.', autoApproved: true }] })],
      problems: [{ file: '/ws/.smith/mcp.json', server: 'bad', field: 'timeout', message: 'must be at least 1 (seconds)' }],
    };
    const next = panelReducer(state, { type: 'mcpState', state: mcp });
    assert.equal(next.panel?.mcp, mcp);
    assert.equal(next.panel?.task, state.panel?.task, 'the task keeps its identity (memoised rows)');
    assert.equal(next.panel?.settings, state.panel?.settings);
    assert.equal(next.streaming, state.streaming);
    assert.equal(next.liveOutput, state.liveOutput);
  });

  test('mcpState before the first snapshot is ignored; the snapshot carries the MCP state', () => {
    const mcp: McpPanelState = { ...NO_MCP, servers: [server('early')] };
    assert.equal(panelReducer(initialWebviewState, { type: 'mcpState', state: mcp }), initialWebviewState);
    const snap = panelReducer(initialWebviewState, { type: 'snapshot', state: panel(undefined, mcp) });
    assert.deepEqual(
      snap.panel?.mcp.servers.map((s) => s.name),
      ['early'],
    );
  });

  test('a later snapshot wins over an earlier mcpState', () => {
    let state = withTask(task([]));
    state = panelReducer(state, { type: 'mcpState', state: { ...NO_MCP, servers: [server('a', { status: 'connecting' })] } });
    state = panelReducer(state, { type: 'snapshot', state: panel(task([]), { ...NO_MCP, servers: [server('a', { status: 'error', error: 'boom' })] }) });
    assert.equal(state.panel?.mcp.servers[0]?.status, 'error');
    assert.equal(state.panel?.mcp.servers[0]?.error, 'boom');
  });

  test('insertText queues text for the Task box until the composer takes it; snapshots keep it', () => {
    let state = panelReducer(initialWebviewState, { type: 'insertText', text: 'first' });
    assert.deepEqual(state.inserts, ['first'], 'an insert before the first snapshot is kept');
    state = panelReducer(state, { type: 'snapshot', state: panel(task([msg('a')])) });
    state = panelReducer(state, { type: 'insertText', text: 'second' });
    state = panelReducer(state, { type: 'taskMessages', taskId: 'task-1', start: 1, messages: [msg('b')] });
    assert.deepEqual(state.inserts, ['first', 'second']);
    // The composer took the two it saw; one that came in meanwhile stays.
    state = panelReducer(state, { type: 'insertText', text: 'third' });
    state = panelReducer(state, { type: 'insertsTaken', count: 2 });
    assert.deepEqual(state.inserts, ['third']);
    assert.equal(panelReducer(state, { type: 'insertsTaken', count: 0 }), state);
    assert.deepEqual(panelReducer(state, { type: 'insertsTaken', count: 1 }).inserts, []);
  });
});
