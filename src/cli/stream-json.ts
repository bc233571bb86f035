import type { TaskEvent } from '../core/log/events.js';
import type { TaskUpdate } from '../core/task/task.js';
import type { JsonSummary } from './json-summary.js';

/**
 * One line of `--output stream-json`, written to stdout as it happens. Every line carries the id
 * of the task it belongs to (a run is several tasks when the model hands over with new_task).
 * `event` lines are the task log's events exactly as logged (tool calls, approvals asked and
 * answered, results, usage, checkpoints…); `delta` lines are the model's text as it streams;
 * `progress` lines a running command's output; the last line is the `summary`, the object
 * `--output json` prints.
 */
export type StreamJsonLine =
  | { readonly type: 'event'; readonly taskId: string; readonly event: Extract<TaskUpdate, { type: 'event' }>['event'] }
  | { readonly type: 'delta'; readonly taskId: string; readonly kind: 'text' | 'reasoning'; readonly text: string }
  | { readonly type: 'progress'; readonly taskId: string; readonly callId: string; readonly text: string }
  | {
      readonly type: 'retry';
      readonly taskId: string;
      readonly attempt: number;
      readonly maxRetries: number;
      readonly delayMs: number;
      readonly reason: string;
    }
  | ({ readonly type: 'summary' } & JsonSummary);

/** The stream line for a task update; undefined for updates only a screen needs (parsed blocks). */
export function streamJsonLine(taskId: string, update: TaskUpdate): StreamJsonLine | undefined {
  switch (update.type) {
    case 'event':
      return { type: 'event', taskId, event: update.event };
    case 'delta':
      return update.delta.kind === 'text' || update.delta.kind === 'reasoning'
        ? { type: 'delta', taskId, kind: update.delta.kind, text: update.delta.text }
        : undefined;
    case 'progress':
      return { type: 'progress', taskId, callId: update.callId, text: update.text };
    case 'retry':
      return { type: 'retry', taskId, attempt: update.attempt, maxRetries: update.maxRetries, delayMs: update.delayMs, reason: update.reason };
  }
}

/** The events of a task's log that belong to the current run: from its start or its last resume on. */
export function eventsOfThisRun(events: readonly TaskEvent[]): readonly TaskEvent[] {
  const start = events.findLastIndex((event) => event.type === 'task_started' || event.type === 'task_resumed');
  return start < 0 ? events : events.slice(start);
}

/** Writes stream lines, one JSON object per line. */
export function writeStreamJson(out: NodeJS.WritableStream, line: StreamJsonLine | undefined): void {
  if (line) out.write(`${JSON.stringify(line)}\n`);
}
