// The states a bisect walks: a task's checkpoints, each with the step that led to it, read from
// the task's log (never written).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type CheckpointInfo, listCheckpoints } from '../checkpoints/rewind-task.js';
import type { TaskEvent } from '../log/events.js';
import { listStoredTasks, readTaskEvents, taskDir } from '../log/task-log.js';
import { taskIdProblem } from '../../shared/task-id.js';

/** A bisect that cannot start or cannot go on, worded for the user. */
export class BisectError extends Error {}

/** The step a checkpoint follows, as the user knows it. */
export interface BisectStep {
  /** `tool`: a tool call; `start`: the task began; `resume`: the task resumed (files changed between its runs are in this state). */
  readonly kind: 'tool' | 'start' | 'resume';
  /** The step's position in the task log. */
  readonly seq: number;
  readonly tool?: string;
  readonly callId?: string;
  /** The call's parameters in a line each, long values shortened. */
  readonly params?: Readonly<Record<string, string>>;
  /** Whether the call ended in an error (the workspace may still have changed). */
  readonly failed?: boolean;
}

/** One state a bisect can test: a checkpoint and the step that led to it. */
export interface BisectState {
  readonly checkpoint: CheckpointInfo;
  readonly step: BisectStep;
}

/** A stored task as a bisect reads it. */
export interface BisectSource {
  readonly taskId: string;
  /** The workspace folder it ran in. */
  readonly cwd: string;
  /** Its first message. */
  readonly task: string;
  readonly events: readonly TaskEvent[];
  readonly states: readonly BisectState[];
}

/** Longest parameter value shown whole; longer ones are shortened (a file's content is never shown). */
const PARAM_SHOWN_CHARS = 120;
/** How many recent task ids an unknown id's error names. */
const RECENT_IDS_SHOWN = 5;

/** Reads a stored task's log and checkpoints; throws BisectError when there is no such task. */
export function readBisectSource(storageDir: string, taskId: string): BisectSource {
  const problem = taskIdProblem(taskId);
  if (problem !== undefined) throw new BisectError(`"${taskId}" is not a task id: ${problem}`);
  if (!existsSync(join(taskDir(storageDir, taskId), 'events.jsonl'))) throw new BisectError(unknownTaskMessage(storageDir, taskId));
  const events = readTaskEvents(storageDir, taskId);
  const started = events.find((e) => e.type === 'task_started');
  if (started?.type !== 'task_started') throw new BisectError(`the log of task ${taskId} has no task_started event`);
  const states = listCheckpoints(events).map((checkpoint) => ({ checkpoint, step: stepBefore(events, checkpoint.afterSeq) }));
  return { taskId, cwd: started.cwd, task: started.task, events, states };
}

/** "No task …", with the newest ids of the storage to choose from. */
function unknownTaskMessage(storageDir: string, taskId: string): string {
  const tasksDir = join(storageDir, 'tasks');
  const ids = existsSync(tasksDir) && readdirSync(tasksDir).length > 0 ? listStoredTasks(storageDir, () => {}).map((t) => t.taskId) : [];
  const hint = ids.length === 0 ? ' (it has no tasks)' : `. Recent tasks: ${ids.slice(0, RECENT_IDS_SHOWN).join(', ')}`;
  return `No task with id "${taskId}" in ${storageDir}${hint}`;
}

/** The step whose event is at `seq`: a tool call's result or error, the task's start or a resume. */
function stepBefore(events: readonly TaskEvent[], seq: number): BisectStep {
  const event = events[seq];
  if (event?.type === 'task_started') return { kind: 'start', seq };
  if (event?.type === 'tool_result' || event?.type === 'tool_error') {
    const requested = events.find((e) => e.type === 'tool_requested' && e.callId === event.callId);
    // Hooks may have changed the input the tool ran with; that is what the step did.
    const hooked = events.find((e) => e.type === 'hooks_ran' && e.callId === event.callId && e.input !== undefined);
    const params = hooked?.type === 'hooks_ran' && hooked.input ? hooked.input : requested?.type === 'tool_requested' ? requested.params : {};
    return {
      kind: 'tool',
      seq,
      tool: event.tool,
      callId: event.callId,
      params: summariseParams(params),
      ...(event.type === 'tool_error' ? { failed: true } : {}),
    };
  }
  return { kind: 'resume', seq };
}

/** A call's parameters for a report: each on one line, long values cut. */
export function summariseParams(params: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const line = value.replace(/\s+/g, ' ').trim();
    out[key] = line.length <= PARAM_SHOWN_CHARS ? line : `${line.slice(0, PARAM_SHOWN_CHARS - 1)}… (${value.length} characters)`;
  }
  return out;
}

/** A step in a few words: `replace_in_file path=src/a.ts`, `the task began`. */
export function describeStep(step: BisectStep): string {
  if (step.kind === 'start') return 'the task began (the workspace as the task found it)';
  if (step.kind === 'resume') return 'the task resumed (files changed between its runs)';
  const shown = Object.entries(step.params ?? {})
    .filter(([key]) => !LONG_PARAMS.has(key))
    .map(([key, value]) => `${key}=${value}`);
  return `${step.tool}${shown.length > 0 ? ` ${shown.join(' ')}` : ''}${step.failed ? ' (ended in an error)' : ''}`;
}

/** Parameters that hold a file's text or a patch: in the JSON report, not in the one-line description. */
const LONG_PARAMS = new Set(['content', 'diff', 'patch', 'text', 'arguments']);
