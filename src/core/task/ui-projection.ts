import { loopNotice } from '../../shared/loop-notice.js';
import type { ToolStatus, UiAttachment, UiMessage, UiToolMessage } from '../../shared/ui-messages.js';
import type { Attachment } from '../log/attachment.js';
import type { TaskEvent } from '../log/events.js';
import { serializeBlocks } from '../parse/serialize-blocks.js';
import { importedNotice } from './imported-notice.js';
import { visibleEvents } from '../log/visible-events.js';
import { hookRunLine, isNoteworthyHookRun } from '../../shared/hook-runs.js';

export { usageTotals } from '../log/usage-totals.js';

/**
 * The chat derived from the events folded so far. `foldUiEvent` updates it in place, in time that
 * does not grow with the log (a rewind, which takes messages out of the middle, folds the visible
 * events again), so a panel keeps one and folds each appended event instead of projecting the
 * whole log again. Messages themselves are never mutated: a changed message is
 * replaced, so a list handed out earlier keeps the messages it had.
 */
export interface UiProjectionState {
  /** The chat so far; the same array across folds. */
  readonly messages: readonly UiMessage[];
  /** How many events were folded in (the next event to fold is `events[folded]`). */
  readonly folded: number;
  /** The first message a fold added or replaced since `foldUiEvents` last started; `messages.length` when none. */
  readonly changedFrom: number;
}

/** The fold's bookkeeping, private to this module. */
interface FoldState extends UiProjectionState {
  readonly messages: UiMessage[];
  folded: number;
  changedFrom: number;
  /** Where each call's card is. */
  readonly toolIndex: Map<string, number>;
  /** Calls whose card is running or awaiting approval: what a resume or a completion settles. */
  readonly openTools: Set<string>;
  /** Every event folded so far, in order: what a rewind folds again. */
  readonly events: TaskEvent[];
  /** The call whose card shows the newest browser screenshot (older cards give theirs up). */
  screenshotCall?: string;
  /** False while later events are applied to a page's cards: they change cards, never add messages. */
  pushing?: boolean;
}

/** An empty chat, before any event. */
export function emptyUiProjection(): UiProjectionState {
  const state: FoldState = { messages: [], folded: 0, changedFrom: 0, toolIndex: new Map(), openTools: new Set(), events: [] };
  return state;
}

/** Derives the chat's message list from the log; the same events always give the same list. */
export function uiProjection(events: readonly TaskEvent[]): UiMessage[] {
  const state = emptyUiProjection();
  foldUiEvents(state, events);
  return state.messages as UiMessage[];
}

/**
 * Folds the events after `state.folded` into the state; returns the index of the first message
 * they added or replaced (`messages.length` when they changed nothing the chat shows).
 */
export function foldUiEvents(state: UiProjectionState, events: readonly TaskEvent[]): number {
  const fold = state as FoldState;
  fold.changedFrom = fold.messages.length;
  for (let i = fold.folded; i < events.length; i++) foldUiEvent(fold, events[i]!);
  return fold.changedFrom;
}

/** Folds one event into the chat (in place) and returns the state. */
export function foldUiEvent(state: UiProjectionState, event: TaskEvent): UiProjectionState {
  const fold = state as FoldState;
  fold.events.push(event);
  fold.folded = fold.events.length;
  if (event.type === 'conversation_rewound' && event.toSeq !== undefined) refold(fold);
  else applyEvent(fold, event);
  return fold;
}

/**
 * A rewind takes messages out of the middle of the chat, which no single fold step can: the chat
 * is built again from the events still visible (the rare case; every other event folds in place).
 */
function refold(fold: FoldState): void {
  fold.messages.length = 0;
  fold.toolIndex.clear();
  fold.openTools.clear();
  fold.screenshotCall = undefined;
  for (const event of visibleEvents(fold.events)) applyEvent(fold, event);
  fold.changedFrom = 0;
}

/** Applies one event's change to the chat. */
function applyEvent(fold: FoldState, event: TaskEvent): void {
  const { messages, toolIndex, openTools } = fold;
  const push = (message: UiMessage) => {
    if (fold.pushing === false) return;
    fold.changedFrom = Math.min(fold.changedFrom, messages.length);
    messages.push(message);
  };
  const updateTool = (callId: string, change: Partial<UiToolMessage>) => {
    const index = toolIndex.get(callId);
    if (index === undefined) return;
    const current = messages[index] as UiToolMessage;
    const next = { ...current, ...change };
    if (isOpen(next.status)) openTools.add(callId);
    else openTools.delete(callId);
    if ((Object.keys(change) as (keyof UiToolMessage)[]).every((key) => current[key] === next[key])) return;
    messages[index] = next;
    fold.changedFrom = Math.min(fold.changedFrom, index);
  };

  const id = `e${event.seq}`;
  switch (event.type) {
    case 'task_started':
      push({ kind: 'task', id, seq: event.seq, text: event.task, ...attachedOf(event.attachments), ts: event.ts });
      if (event.imported) push(importedNotice(event.imported, `${id}-imported`, event.ts));
      break;
    case 'user_message':
      push({ kind: 'user', id, seq: event.seq, text: event.text, ...attachedOf(event.attachments), ts: event.ts });
      break;
    case 'model_response': {
      const text = serializeBlocks(event.blocks.filter((b) => b.kind === 'text')).trim();
      const thinking = event.blocks.filter((b) => b.kind === 'thinking').map((b) => b.text);
      const reasoning = [event.reasoning, ...thinking].filter(Boolean).join('\n\n');
      if (text || reasoning) push({ kind: 'assistant', id, text, reasoning, ts: event.ts });
      break;
    }
    case 'tool_requested':
      toolIndex.set(event.callId, messages.length);
      openTools.add(event.callId);
      push({ kind: 'tool', id, callId: event.callId, tool: event.tool, params: event.params, status: 'running', ts: event.ts });
      break;
    case 'approval_asked':
      updateTool(event.callId, { status: 'awaiting_approval' });
      break;
    case 'approval_answered':
      updateTool(event.callId, {
        status: event.approved ? 'running' : 'rejected',
        ...(event.approved ? { approvedBy: 'user' as const } : {}),
        ...(event.feedback ? { feedback: event.feedback } : {}),
      });
      break;
    case 'subagent_started': {
      const index = toolIndex.get(event.callId);
      const started = index === undefined ? [] : ((messages[index] as UiToolMessage).subagents ?? []);
      updateTool(event.callId, {
        subagents: [
          ...started,
          {
            index: event.index,
            taskId: event.taskId,
            prompt: event.prompt,
            ...(event.name ? { name: event.name } : {}),
            ...(event.paths ? { paths: [...event.paths] } : {}),
          },
        ],
      });
      break;
    }
    case 'tool_auto_approved':
      updateTool(event.callId, { approvedBy: 'auto', ...(event.rule ? { rule: event.rule } : {}) });
      break;
    case 'tool_result': {
      // The base64 stays in the log: the panel gets a marker, not megabytes of snapshot.
      const count = event.images?.length ?? 0;
      const marker = count === 0 ? '' : `\n\n[${count === 1 ? 'image' : `${count} images`} sent to the model]`;
      updateTool(event.callId, { status: 'done', output: event.output + marker, ...(event.details ? { details: event.details } : {}) });
      const shot = event.details?.browser?.screenshot ? event.images?.[0] : undefined;
      if (shot) {
        if (fold.screenshotCall !== undefined) updateTool(fold.screenshotCall, { screenshot: undefined });
        fold.screenshotCall = event.callId;
        updateTool(event.callId, { screenshot: `data:${shot.mimeType};base64,${shot.data}` });
      }
      break;
    }
    case 'tool_error':
      if (toolIndex.has(event.callId)) updateTool(event.callId, { status: 'failed', error: event.error, ...(event.details ? { details: event.details } : {}) });
      else push({ kind: 'error', id, text: event.error, ts: event.ts });
      break;
    case 'no_tool_used':
      push({ kind: 'notice', id, text: 'The model answered without using a tool; reminded it to use one.', ts: event.ts });
      break;
    case 'loop_detected':
      push({ kind: 'notice', id, text: loopNotice(event.tool, event.count, event.action, event.sameFailure), ts: event.ts });
      break;
    case 'task_resumed':
      for (const callId of [...openTools]) updateTool(callId, { status: 'interrupted' });
      push({ kind: 'notice', id, text: 'Task resumed.', ts: event.ts });
      break;
    case 'error':
      push({ kind: 'error', id, text: event.message, ts: event.ts });
      break;
    case 'task_completed':
      for (const callId of [...openTools]) {
        if ((messages[toolIndex.get(callId)!] as UiToolMessage).status === 'running') updateTool(callId, { status: 'done' });
      }
      push({ kind: 'completion', id, result: event.result, ...(event.command ? { command: event.command } : {}), ts: event.ts });
      break;
    case 'task_aborted':
      push({ kind: 'notice', id, text: `Task stopped: ${event.reason}`, ts: event.ts });
      break;
    case 'mode_switched':
      push({ kind: 'notice', id, text: `Switched to ${event.mode === 'plan' ? 'Plan' : 'Act'} mode.`, ts: event.ts });
      break;
    case 'mode_slug_switched':
      push({ kind: 'notice', id, text: `Switched to the ${event.modeSlug} mode.`, ts: event.ts });
      break;
    case 'history_condensed':
      push({
        kind: 'notice',
        id,
        text: `Older history was condensed into a summary${event.model ? ` (written by ${event.model})` : ''}.`,
        detail: event.summary,
        ts: event.ts,
      });
      break;
    case 'tool_results_shortened':
      push({
        kind: 'notice',
        id,
        text: `Shortened ${event.results} large old tool result${event.results === 1 ? '' : 's'} to keep the context small (about ${event.savedTokens.toLocaleString('en-US')} tokens less per request).`,
        ts: event.ts,
      });
      break;
    case 'condense_failed':
      push({ kind: 'notice', id, text: `Condensing the history failed: ${event.error}`, ts: event.ts });
      break;
    case 'response_interrupted':
      if (event.partialText.trim()) push({ kind: 'assistant', id, text: event.partialText.trim(), reasoning: '', ts: event.ts });
      push({
        kind: 'notice',
        id: `${id}-n`,
        text: event.byUser
          ? `You stopped the answer here (${event.error}); nothing in it was run.`
          : `The response was interrupted (${event.error}); nothing from it was run.`,
        ts: event.ts,
      });
      break;
    case 'request_retried':
      push({ kind: 'retry', id, attempt: event.attempt, maxRetries: event.maxRetries, delayMs: event.delayMs, reason: event.reason, ts: event.ts });
      break;
    case 'history_truncated':
      push({ kind: 'notice', id, text: "Older messages were removed from the model's context to fit its window (they stay in the log).", ts: event.ts });
      break;
    case 'new_task_requested':
      push({ kind: 'notice', id, text: 'The model asked to continue in a new task.', ts: event.ts });
      break;
    case 'conversation_rewound':
      // A conversation rewind refolds first, then lands here as the last event still visible.
      push({ kind: 'notice', id, text: rewindNotice(event.checkpointId, event.files, event.toSeq !== undefined), ts: event.ts });
      break;
    case 'hooks_ran':
      // A quiet success is only logged; decisions, changes and failures are shown.
      for (const [index, run] of event.runs.filter(isNoteworthyHookRun).entries()) {
        push({ kind: 'notice', id: index === 0 ? id : `${id}-${index}`, text: hookRunLine(event.event, event.tool, run), ts: event.ts });
      }
      break;
    case 'checkpoint_created':
      push({
        kind: 'checkpoint',
        id,
        checkpointId: event.checkpointId,
        changed: event.changed.slice(0, CHANGED_PATHS_SHOWN),
        changedCount: event.changedCount,
        skipped: [...event.skipped],
        ts: event.ts,
      });
      break;
    case 'request_started':
      break;
  }
}

/**
 * What the events after a page still do to the page's cards, oldest first: updates of calls the
 * page requested, the settling of calls left open (a resume, a completion), a newer screenshot;
 * `settleAtEnd`: the log ends mid-run, so calls still open then show as interrupted.
 */
export interface LaterEffects {
  readonly events: readonly TaskEvent[];
  readonly settleAtEnd: boolean;
}

/** Nothing after: the newest page of a log that ends as it should. */
export const NO_LATER_EFFECTS: LaterEffects = { events: [], settleAtEnd: false };

/**
 * The messages of one page of a log: visible events (visibleEvents) that begin where a call or a
 * turn begins, projected as `uiProjection` projects them within the whole log, given what the
 * events after the page do to it (`later`). Returns them with what this page and the ones after it
 * do to the pages before. A call's own events lie in the page of its request (a call is requested,
 * decided and answered before the next call or turn starts), so a failed call the page did not
 * request was never requested: it is an error message, as in the whole log.
 */
export function projectPage(events: readonly TaskEvent[], later: LaterEffects): { messages: UiMessage[]; earlier: LaterEffects } {
  const fold = emptyUiProjection() as FoldState;
  const carried: TaskEvent[] = [];
  for (const event of events) {
    applyEvent(fold, event);
    if (changesEarlierCards(fold, event)) carried.push(event);
  }
  fold.pushing = false;
  for (const event of later.events) applyEvent(fold, event);
  if (later.settleAtEnd) for (const callId of [...fold.openTools]) settleInterruptedCall(fold, callId);
  return { messages: fold.messages, earlier: { events: carried.length === 0 ? later.events : [...carried, ...later.events], settleAtEnd: later.settleAtEnd } };
}

/** Event types that add a message to the chat (most of the time: a reply may have no text, a hook run may stay quiet). */
const MESSAGE_EVENTS: ReadonlySet<string> = new Set<TaskEvent['type']>([
  'task_started',
  'user_message',
  'model_response',
  'tool_requested',
  'no_tool_used',
  'task_resumed',
  'error',
  'task_completed',
  'task_aborted',
  'mode_switched',
  'mode_slug_switched',
  'history_condensed',
  'condense_failed',
  'response_interrupted',
  'request_retried',
  'history_truncated',
  'new_task_requested',
  'conversation_rewound',
  'checkpoint_created',
]);

/** Roughly whether an event of this type adds a message: to size a page before projecting it. */
export function addsMessage(type: string): boolean {
  return MESSAGE_EVENTS.has(type);
}

/** Where a page may begin: before a turn or a call begins, never inside a call's own events. */
const PAGE_STARTS: ReadonlySet<string> = new Set<TaskEvent['type']>(['task_started', 'user_message', 'request_started', 'task_resumed', 'tool_requested']);

/** True when a page may begin with an event of this type. */
export function beginsPage(type: string): boolean {
  return PAGE_STARTS.has(type);
}

/** Events that update a call's card (a failed call the page did not request is an error message of its own). */
const CALL_UPDATES: ReadonlySet<string> = new Set<TaskEvent['type']>([
  'approval_asked',
  'approval_answered',
  'subagent_started',
  'tool_auto_approved',
  'tool_result',
]);

/** True when `event` (just folded into a page) may change cards of the pages before it. */
function changesEarlierCards(fold: FoldState, event: TaskEvent): boolean {
  if (event.type === 'task_resumed' || event.type === 'task_completed') return true;
  if (event.type === 'tool_result' && event.details?.browser?.screenshot && event.images?.[0]) return true;
  const callId = (event as { readonly callId?: unknown }).callId;
  return CALL_UPDATES.has(event.type) && typeof callId === 'string' && !fold.toolIndex.has(callId);
}

function settleInterruptedCall(fold: FoldState, callId: string): void {
  const index = fold.toolIndex.get(callId)!;
  fold.messages[index] = { ...(fold.messages[index] as UiToolMessage), status: 'interrupted' };
  fold.openTools.delete(callId);
}

/** Changed paths a checkpoint marker carries (the log keeps more; Compare shows them all). */
const CHANGED_PATHS_SHOWN = 20;

function attachedOf(attachments: readonly Attachment[] | undefined): { attached?: UiAttachment[] } {
  if (!attachments || attachments.length === 0) return {};
  return { attached: attachments.map((a) => ({ kind: a.kind, ref: a.ref, truncated: a.truncated })) };
}

function rewindNotice(checkpointId: string, files: boolean, conversation: boolean): string {
  const what = files && conversation ? 'Files and conversation' : files ? 'Files' : 'The conversation';
  return `${what} went back to ${checkpointId === '' ? 'the start of the task' : `checkpoint ${checkpointId}`}.`;
}

function isOpen(status: ToolStatus): boolean {
  return status === 'running' || status === 'awaiting_approval';
}
