import type { HostMessage, PanelState, TaskProgress, TaskView } from '../../../src/shared/protocol.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';

/** The assistant message while it streams; transient, replaced by the logged message. */
export interface StreamingView {
  readonly taskId: string;
  /** The host's name for this message; parts sent with an offset apply to the same key only. */
  readonly key?: string;
  readonly text: string;
  readonly reasoning: string;
  /** How many messages the task had when this stream began: tells one response's stream from the next one's. */
  readonly since: number;
}

/** Everything the webview knows from the host. */
export interface WebviewState {
  /** Undefined until the first snapshot. */
  readonly panel?: PanelState;
  readonly streaming?: StreamingView;
  /** Live output of running commands by callId, capped to the tail. */
  readonly liveOutput: Readonly<Record<string, string>>;
  /** Text the host sent for the Task box (`insertText`), oldest first, until the composer takes it. */
  readonly inserts: readonly string[];
}

/** What the reducer applies: a host message, or the composer saying it took the first `count` inserts. */
type PanelAction = HostMessage | { readonly type: 'insertsTaken'; readonly count: number };

/** Live output kept per command: enough to scroll back a little, bounded so a chatty build cannot grow memory. */
export const LIVE_OUTPUT_CAP = 64 * 1024;

/** The state before the host has said anything. */
export const initialWebviewState: WebviewState = { liveOutput: {}, inserts: [] };

/** Applies one host message or local action; pure, returns the same object when nothing changed. */
export function panelReducer(state: WebviewState, message: PanelAction): WebviewState {
  switch (message.type) {
    case 'snapshot':
      return applySnapshot(state, message.state, message.streaming, message.dropOlder === true);
    case 'taskMessages':
      return applyTaskMessages(state, message.taskId, message.start, message.messages, message.reset === true);
    case 'olderMessages':
      return applyOlderMessages(state, message);
    case 'taskProgress':
      return applyTaskProgress(state, message.taskId, message.progress);
    case 'streaming':
      return applyStreaming(state, message);
    case 'commandOutput': {
      // Output of a task the chat does not show (it was switched meanwhile) is not kept.
      if (message.taskId !== undefined && message.taskId !== state.panel?.task?.id) return state;
      const appended = (state.liveOutput[message.callId] ?? '') + message.text;
      const capped = appended.length > LIVE_OUTPUT_CAP ? appended.slice(appended.length - LIVE_OUTPUT_CAP) : appended;
      return { ...state, liveOutput: { ...state.liveOutput, [message.callId]: capped } };
    }
    case 'mcpState':
      // Before the first snapshot there is nothing to update; that snapshot carries the MCP state.
      if (state.panel === undefined) return state;
      return { ...state, panel: { ...state.panel, mcp: message.state } };
    case 'liveTasks': {
      if (state.panel === undefined) return state;
      const { tasks: _tasks, ...rest } = state.panel;
      return { ...state, panel: { ...rest, ...(message.tasks.length > 0 ? { tasks: message.tasks } : {}) } };
    }
    case 'insertText':
      return { ...state, inserts: [...state.inserts, message.text] };
    case 'insertsTaken':
      return message.count <= 0 ? state : { ...state, inserts: state.inserts.slice(message.count) };
    case 'reply':
      // Replies settle requests (src/shared/request-client.ts); they carry no panel state.
      return state;
  }
}

/**
 * The streaming message grown by appending: `text` replaces what the view holds from `textFrom`
 * on (the same for the reasoning). A part for a message the view does not hold (another key, or
 * an offset past its end) is ignored: the host sends a message whole when it starts, and the
 * snapshot carries the whole message streaming.
 */
function applyStreaming(state: WebviewState, message: Extract<HostMessage, { type: 'streaming' }>): WebviewState {
  const task = state.panel?.task;
  if (task?.id !== message.taskId) return state;
  const textFrom = message.textFrom ?? 0;
  const reasoningFrom = message.reasoningFrom ?? 0;
  const held = state.streaming;
  const same = held !== undefined && held.taskId === message.taskId && held.key === message.key;
  if ((textFrom > 0 || reasoningFrom > 0) && (!same || textFrom > held.text.length || reasoningFrom > held.reasoning.length)) return state;
  const text = textFrom === 0 ? message.text : grown(held!.text, textFrom, message.text);
  const reasoning = reasoningFrom === 0 ? message.reasoning : grown(held!.reasoning, reasoningFrom, message.reasoning);
  const since = held?.since ?? messageEnd(task);
  return { ...state, streaming: { taskId: message.taskId, ...(message.key !== undefined ? { key: message.key } : {}), text, reasoning, since } };
}

/** `held` up to `from`, then `part`: appending never copies what is held. */
function grown(held: string, from: number, part: string): string {
  return (from === held.length ? held : held.slice(0, from)) + part;
}

/** The index just past the task's last message in the whole chat (its messages may be only the newest). */
function messageEnd(task: TaskView): number {
  return (task.messagesFrom ?? 0) + task.messages.length;
}

/** The task view with `messages`, the first at index `from` of the whole chat. */
function withMessages(task: TaskView, messages: readonly UiMessage[], from: number): TaskView {
  const { messagesFrom: _from, ...rest } = task;
  return { ...rest, messages, ...(from > 0 ? { messagesFrom: from } : {}) };
}

/**
 * The snapshot says what streams now: text streamed before it may since have been logged, and is in
 * `panel`. It carries the newest page of the chat; older messages this webview paged in stay
 * before it (every change to them came as `taskMessages`), unless `dropOlder`.
 */
function applySnapshot(
  state: WebviewState,
  panel: PanelState,
  streaming: { key?: string; text: string; reasoning: string } | undefined,
  dropOlder: boolean,
): WebviewState {
  const held = state.panel?.task;
  let task = panel.task;
  if (task !== undefined && held !== undefined && held.id === task.id && !dropOlder) {
    const heldFrom = held.messagesFrom ?? 0;
    const from = task.messagesFrom ?? 0;
    if (heldFrom < from && from <= messageEnd(held)) task = withMessages(task, held.messages.slice(0, from - heldFrom).concat(task.messages), heldFrom);
  }
  return {
    ...state,
    panel: task === panel.task ? panel : { ...panel, task },
    streaming: streaming !== undefined && task !== undefined ? { taskId: task.id, ...streaming, since: state.streaming?.since ?? messageEnd(task) } : undefined,
    liveOutput: pruneLiveOutput(state.liveOutput, task?.messages ?? []),
  };
}

/** Messages from index `start` of the whole chat on; with `reset`, nothing held before them is kept. */
function applyTaskMessages(state: WebviewState, taskId: string, start: number, incoming: readonly UiMessage[], reset: boolean): WebviewState {
  const panel = state.panel;
  const task = panel?.task;
  if (panel === undefined || task === undefined || task.id !== taskId) return state;
  const heldFrom = task.messagesFrom ?? 0;
  let nextTask: TaskView;
  if (reset || start > messageEnd(task)) {
    // A gap (updates missed) cannot be filled here: the messages sent become the chat held.
    nextTask = withMessages(task, incoming, start);
  } else if (start < heldFrom) {
    // The change begins before what is held: only its part from the first held message on.
    nextTask = withMessages(task, incoming.slice(heldFrom - start), heldFrom);
  } else {
    nextTask = withMessages(task, task.messages.slice(0, start - heldFrom).concat(incoming), heldFrom);
  }
  return {
    ...state,
    panel: { ...panel, task: nextTask },
    streaming: endsStreaming(state.streaming, task.messages, incoming) ? undefined : state.streaming,
    liveOutput: pruneLiveOutput(state.liveOutput, incoming),
  };
}

/** A page of older messages, put before the first one held when it is still the one asked about. */
function applyOlderMessages(state: WebviewState, message: Extract<HostMessage, { type: 'olderMessages' }>): WebviewState {
  const panel = state.panel;
  const task = panel?.task;
  if (panel === undefined || task === undefined || task.id !== message.taskId || task.messages[0]?.id !== message.before) return state;
  const known = new Set(task.messages.map((m) => m.id));
  // A page never repeats a message held (it ends just before `before`); refused whole if it would.
  if (message.messages.some((m) => known.has(m.id))) return state;
  return { ...state, panel: { ...panel, task: withMessages(task, message.messages.concat(task.messages), message.start) } };
}

/** The usage line, todo list and context bar of the open task, as the host last computed them. */
function applyTaskProgress(state: WebviewState, taskId: string, progress: TaskProgress): WebviewState {
  const panel = state.panel;
  const task = panel?.task;
  if (panel === undefined || task === undefined || task.id !== taskId) return state;
  // Absent fields are absent from the task too (a rewind can take the todo list away).
  const { cost: _cost, todos: _todos, context: _context, ...rest } = task;
  return { ...state, panel: { ...panel, task: { ...rest, ...progress } } };
}

/** A new assistant or tool message means the streamed text has been logged. */
function endsStreaming(streaming: StreamingView | undefined, before: readonly UiMessage[], incoming: readonly UiMessage[]): boolean {
  if (streaming === undefined) return false;
  const known = new Set(before.map((m) => m.id));
  return incoming.some((m) => (m.kind === 'assistant' || m.kind === 'tool') && !known.has(m.id));
}

/** Drops live output of commands that have finished: their card now shows the logged output. */
function pruneLiveOutput(live: Readonly<Record<string, string>>, messages: readonly UiMessage[]): Readonly<Record<string, string>> {
  const callIds = Object.keys(live);
  if (callIds.length === 0) return live;
  const finished = new Set<string>();
  for (const m of messages) if (m.kind === 'tool' && m.status !== 'running' && m.status !== 'awaiting_approval') finished.add(m.callId);
  if (!callIds.some((id) => finished.has(id))) return live;
  const kept: Record<string, string> = {};
  for (const id of callIds) if (!finished.has(id)) kept[id] = live[id]!;
  return kept;
}
