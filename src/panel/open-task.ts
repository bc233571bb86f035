import type { StreamingMessage } from './streaming-message.js';
import type { TaskEnvironment } from '../core/session/task-environment.js';
import type { Mode } from '../shared/mode.js';
import { currentTodoList } from '../core/context/todo-list.js';
import type { ContextMeasured, TaskEvent } from '../core/log/events.js';
import { visibleEvents } from '../core/log/visible-events.js';
import type { Task, TaskOutcome } from '../core/task/task.js';
import { currentModeAndSkill } from '../core/task/turn-setup.js';
import { usageTotals, type UiProjectionState } from '../core/task/ui-projection.js';
import type { TaskProgress, TaskView } from '../shared/protocol.js';
import type { UiMessage } from '../shared/ui-messages.js';
import { lastError, runStatus } from './panel-state.js';
import type { WebviewInteractions } from './webview-interactions.js';

/** The task open in the panel: live (a Task) or only viewed from the history until the user acts. */
export interface OpenTask {
  readonly id: string;
  task?: Task;
  environment?: TaskEnvironment;
  unsubscribe?: () => void;
  viewedEvents: readonly TaskEvent[];
  run?: Promise<TaskOutcome>;
  messages: readonly UiMessage[];
  /** The live task's chat, folded event by event as its log grows. */
  ui?: UiProjectionState;
  /** The assistant message streaming now, built by appending the task's deltas. */
  streaming?: StreamingMessage;
  /** Mode or skill chosen while the task was only viewed, applied when it goes live. */
  pendingMode?: Mode;
  pendingSkill?: string;
  /** The last usage, todo list and context figures sent alone (JSON), so an unchanged one is not resent. */
  progressKey?: string;
  /** The provider settings changed while a run was under way: the next run gets an environment built from them. */
  settingsChanged?: boolean;
}

/** The open task as the panel shows it. */
export function taskView(open: OpenTask, interactions: Pick<WebviewInteractions, 'pendingApproval' | 'pendingQuestion'>): TaskView {
  const events = eventsOf(open);
  const state = currentModeAndSkill(events);
  const { pendingApproval, pendingQuestion } = open.run ? interactions : { pendingApproval: undefined, pendingQuestion: undefined };
  const error = open.run ? undefined : lastError(events);
  const { usage, ...progress } = taskProgress(events);
  return {
    id: open.id,
    messages: open.messages,
    usage,
    ...progress,
    mode: open.pendingMode ?? state.mode,
    skill: open.pendingSkill ?? state.skill,
    status: runStatus(events, open.run !== undefined, { approval: Boolean(pendingApproval), question: Boolean(pendingQuestion) }),
    ...(pendingApproval ? { pendingApproval } : {}),
    ...(pendingQuestion ? { pendingQuestion } : {}),
    ...(error ? { error } : {}),
    ...(open.task && open.task.queuedMessages.length > 0 ? { queued: [...open.task.queuedMessages] } : {}),
  };
}

/** The usage line, todo list and context bar of a task's events (also sent alone as they change). */
export function taskProgress(events: readonly TaskEvent[]): TaskProgress {
  const usage = usageTotals(events);
  const visible = visibleEvents(events);
  const todos = currentTodoList(visible);
  const measured = visible.findLast((e) => e.type === 'context_measured');
  return {
    usage,
    ...(usage.cost === undefined ? {} : { cost: usage.cost }),
    ...(todos ? { todos: todos.items } : {}),
    ...(measured?.type === 'context_measured' ? { context: contextOf(measured) } : {}),
  };
}

/** Logged events that can change what `taskProgress` returns; others leave it as it was. */
const PROGRESS_EVENTS: ReadonlySet<TaskEvent['type']> = new Set<TaskEvent['type']>([
  'model_response',
  'history_condensed',
  'condense_failed',
  'tool_requested',
  'tool_result',
  'todo_list_edited',
  'context_measured',
  'conversation_rewound',
  'history_truncated',
]);

/** True when `event` may have changed the task's usage, todo list or context figures. */
export function changesProgress(event: TaskEvent): boolean {
  return PROGRESS_EVENTS.has(event.type);
}

/** The open task's events: the live log, or the log as it was read from the history. */
export function eventsOf(open: OpenTask): readonly TaskEvent[] {
  return open.task?.log.events ?? open.viewedEvents;
}

/** The context bar's figures from a measurement (the event without its log fields). */
function contextOf(measured: ContextMeasured): NonNullable<TaskView['context']> {
  const { type: _type, seq: _seq, ts: _ts, ...figures } = measured;
  return figures;
}
