// The webview's store for a chat that arrives as its newest page: older pages put before it,
// snapshots and updates that keep or drop what was paged in.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PanelState, TaskView } from '../../../src/shared/protocol.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { initialWebviewState, panelReducer, type WebviewState } from '../../../webview-ui/src/state/panel-reducer.js';

/** The whole chat: m0 … m199. */
const whole: UiMessage[] = Array.from({ length: 200 }, (_, i) => ({ kind: 'notice', id: `m${i}`, text: `message ${i}`, ts: i }));

function task(from: number, overrides: Partial<TaskView> = {}): TaskView {
  return {
    id: 'task-1',
    messages: whole.slice(from),
    ...(from > 0 ? { messagesFrom: from } : {}),
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    mode: 'act',
    modeSlug: 'default',
    status: 'completed',
    ...overrides,
  };
}

function panel(t: TaskView): PanelState {
  return {
    view: 'chat',
    task: t,
    settings: { provider: 'openai', model: 'm', baseUrl: '', toolProtocol: 'xml', hasApiKey: false },
    history: [],
    modes: [],
    mode: 'act',
    modeSlug: 'default',
    mcp: { servers: [], problems: [], configFiles: { global: '/g.json' } },
    autoApprove: { readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 },
  };
}

const opened = (from: number) => panelReducer(initialWebviewState, { type: 'snapshot', state: panel(task(from)) });
const ids = (state: WebviewState) => state.panel!.task!.messages.map((m) => m.id);
const page = (start: number, end: number) => ({
  type: 'olderMessages' as const,
  taskId: 'task-1',
  before: `m${end}`,
  start,
  messages: whole.slice(start, end),
});

describe('a chat paged in from its newest messages', () => {
  test('pages asked before the first message are put before it, in order, until the first message of the chat', () => {
    let state = opened(150);
    for (const start of [100, 50, 0]) {
      state = panelReducer(state, page(start, start + 50));
      assert.equal(state.panel!.task!.messagesFrom, start === 0 ? undefined : start);
    }
    assert.deepEqual(
      ids(state),
      whole.map((m) => m.id),
    );
  });

  test('a page that no longer fits is ignored: another task, a first message that changed, or one that repeats a message held', () => {
    const state = opened(150);
    assert.equal(panelReducer(state, { ...page(100, 150), taskId: 'other' }), state);
    assert.equal(panelReducer(state, page(90, 140)), state, 'asked before m140, which is not the first message held');
    assert.equal(panelReducer(state, { ...page(100, 150), messages: whole.slice(100, 151) }), state, 'it would repeat m150');
    assert.equal(panelReducer(initialWebviewState, page(100, 150)), initialWebviewState);
  });

  test('a snapshot keeps the older messages paged in before its newest page; dropOlder or another task replaces them', () => {
    let state = panelReducer(opened(150), page(100, 150));
    // The task went on: a new message, the snapshot carries the newest 50.
    const grown = [...whole, { kind: 'notice', id: 'm200', text: 'new', ts: 200 } as UiMessage];
    const newest: TaskView = { ...task(151), messages: grown.slice(151), messagesFrom: 151, status: 'running' };
    state = panelReducer(state, { type: 'snapshot', state: panel(newest) });
    assert.deepEqual(
      ids(state),
      grown.slice(100).map((m) => m.id),
    );
    assert.equal(state.panel!.task!.messagesFrom, 100);
    assert.equal(state.panel!.task!.status, 'running');

    const dropped = panelReducer(state, { type: 'snapshot', state: panel(newest), dropOlder: true });
    assert.deepEqual(
      ids(dropped),
      grown.slice(151).map((m) => m.id),
    );
    assert.equal(dropped.panel!.task!.messagesFrom, 151);

    const other = panelReducer(state, { type: 'snapshot', state: panel({ ...newest, id: 'task-2' }) });
    assert.equal(other.panel!.task!.messages.length, 50);
  });

  test('taskMessages from an index in the whole chat: inside what is held, before it, or a reset that drops the rest', () => {
    const state = panelReducer(opened(150), page(100, 150));
    const changed = { kind: 'notice', id: 'm120', text: 'changed', ts: 120 } as UiMessage;
    const inside = panelReducer(state, { type: 'taskMessages', taskId: 'task-1', start: 120, messages: [changed] });
    assert.deepEqual(
      ids(inside),
      whole.slice(100, 121).map((m) => m.id),
    );
    assert.equal(inside.panel!.task!.messages[20], changed);

    const before = panelReducer(state, { type: 'taskMessages', taskId: 'task-1', start: 90, messages: whole.slice(90, 130) });
    assert.deepEqual(
      ids(before),
      whole.slice(100, 130).map((m) => m.id),
    );
    assert.equal(before.panel!.task!.messagesFrom, 100);

    const reset = panelReducer(state, { type: 'taskMessages', taskId: 'task-1', start: 160, messages: whole.slice(160), reset: true });
    assert.deepEqual(
      ids(reset),
      whole.slice(160).map((m) => m.id),
    );
    assert.equal(reset.panel!.task!.messagesFrom, 160);
  });
});
