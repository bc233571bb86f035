import { currentTodoList } from '../core/context/todo-list.js';
import type { ContextMeasured } from '../core/log/context-events.js';
import type { TaskEvent } from '../core/log/events.js';
import { taskStatus, type StoredTaskSummary } from '../core/log/task-log.js';
import { visibleEvents } from '../core/log/visible-events.js';
import { currentPlanActAndMode } from '../core/task/turn-setup.js';
import { usageTotals } from '../core/task/ui-projection.js';
import type { PlanAct } from '../shared/plan-act.js';
import type { TaskProgress, TaskView } from '../shared/protocol.js';
import { lastError } from './panel-state.js';

/** What the panel shows of a task that is not running, besides its messages. */
export interface TaskFacts {
  readonly mode: PlanAct;
  readonly modeSlug: string;
  /** How its log ends. */
  readonly status: StoredTaskSummary['status'];
  /** The failure it stopped at. */
  readonly error?: string;
  readonly progress: TaskProgress;
  /** Lines of its log that could not be read (left out of everything), for the user. */
  readonly problems: readonly string[];
}

/** The facts of a task's events (`problems`: lines its log had that could not be read). */
export function factsOfEvents(events: readonly TaskEvent[], problems: readonly string[] = []): TaskFacts {
  const error = lastError(events);
  return { ...currentPlanActAndMode(events), status: taskStatus(events), ...(error === undefined ? {} : { error }), progress: taskProgress(events), problems };
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

/** The context bar's figures from a measurement (the event without its log fields). */
function contextOf(measured: ContextMeasured): NonNullable<TaskView['context']> {
  const { type: _type, seq: _seq, ts: _ts, ...figures } = measured;
  return figures;
}
