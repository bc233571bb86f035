import type { TaskEvent } from '../core/log/events.js';
import type { StoredTaskSummary } from '../core/log/task-log.js';
import { taskStatus } from '../core/log/task-log.js';
import type { HistoryItem, PanelState, TaskRunStatus } from '../shared/protocol.js';
import type { UiMessage } from '../shared/ui-messages.js';

/** The history list entry of a stored task. */
export function historyItem(summary: StoredTaskSummary, checkpointBytes?: number): HistoryItem {
  return {
    taskId: summary.taskId,
    task: summary.task,
    startedAt: summary.startedAt,
    updatedAt: summary.updatedAt,
    status: summary.status,
    ...(checkpointBytes !== undefined ? { checkpointBytes } : {}),
    ...(summary.cost !== undefined ? { cost: summary.cost } : {}),
  };
}

/** The history's part of the panel state: the list, or, while the logs are still being read, an empty one that says so. */
export function historyState(history: HistoryItem[] | undefined): Pick<PanelState, 'history' | 'historyLoading'> {
  return history === undefined ? { history: [], historyLoading: true } : { history };
}

/** Where a task stands, from whether it runs, what it waits for, and how its log ends (`interrupted` when mid-run). */
export function runStatus(events: readonly TaskEvent[], running: boolean, waiting: { readonly approval: boolean; readonly question: boolean }): TaskRunStatus {
  if (running) return waiting.approval ? 'awaiting_approval' : waiting.question ? 'awaiting_answer' : 'running';
  return taskStatus(events);
}

/**
 * The messages of a task whose run ended without a word in its log (a reload, a crash): a call
 * that was running or waiting for approval then will never finish, so it shows as interrupted.
 */
export function settleInterrupted(messages: readonly UiMessage[]): UiMessage[] {
  return messages.map((m) => (m.kind === 'tool' && (m.status === 'running' || m.status === 'awaiting_approval') ? { ...m, status: 'interrupted' } : m));
}

/** The message of the failure that ended the task, for the retry banner. */
export function lastError(events: readonly TaskEvent[]): string | undefined {
  if (taskStatus(events) !== 'failed') return undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === 'error') return event.message;
  }
  return undefined;
}

/**
 * The index of the first message that differs between two projections, or `next.length` when
 * nothing changed. Projections rebuild every object, so messages are compared field by field.
 */
export function firstChangedIndex(previous: readonly UiMessage[], next: readonly UiMessage[]): number {
  const shared = Math.min(previous.length, next.length);
  for (let i = 0; i < shared; i++) if (!sameMessage(previous[i]!, next[i]!)) return i;
  return previous.length === next.length ? next.length : shared;
}

function sameMessage(a: UiMessage, b: UiMessage): boolean {
  const left = a as unknown as Record<string, unknown>;
  const right = b as unknown as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => {
    const x = left[key];
    const y = right[key];
    if (x === y) return true;
    return (
      typeof x === 'object' && x !== null && typeof y === 'object' && y !== null && shallowEqual(x as Record<string, unknown>, y as Record<string, unknown>)
    );
  });
}

function shallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** Task ids name folders; refuses anything that could step out of the storage folder. */
export function checkTaskId(taskId: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(taskId)) throw new Error(`"${taskId}" is not a task id.`);
}
