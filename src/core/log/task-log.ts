import { checkpointFoldersOfTask, folderSnapshotsOfTask, snapshotsOfTask } from './task-snapshots.js';
import type { TaskWorktree } from '../worktrees/worktree-types.js';
import { usageTotals } from './usage-totals.js';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { checkTaskId } from '../../shared/task-id.js';
import type { SecretRedactor } from '../secrets/secret-redactor.js';
import type { NewEvent, TaskEvent } from './events.js';
import { forwardLines, readLogTolerantly, type LogProblem } from './log-lines.js';
import { eventFromLine, storedLine } from './stored-events.js';
import type { StoredLine } from './upcast-events.js';

/** The folder holding one task's files under a storage root; an id that could name another place is refused (checkTaskId). */
export function taskDir(storageDir: string, taskId: string): string {
  return join(storageDir, 'tasks', checkTaskId(taskId));
}

/** The file of one task's events (what hooks get as `transcript_path`). */
export function taskEventsFile(storageDir: string, taskId: string): string {
  return join(taskDir(storageDir, taskId), 'events.jsonl');
}

/**
 * An append-only JSONL log of one task's events. Each event is written
 * synchronously as it is appended, so a crash loses at most the line being written. Lines carry
 * their event version and are upcast to the current shapes when read (upcast-events.ts).
 */
export class TaskLog {
  private readonly listeners = new Set<(event: TaskEvent) => void>();

  private constructor(
    readonly taskId: string,
    readonly file: string,
    private readonly log: TaskEvent[],
    private readonly now: () => number,
    private readonly redactor?: SecretRedactor,
  ) {}

  /** Starts an empty log for a new task; fails if the task already has one. */
  static create(storageDir: string, taskId: string, now: () => number = Date.now, redactor?: SecretRedactor): TaskLog {
    const dir = taskDir(storageDir, taskId);
    const file = join(dir, 'events.jsonl');
    if (existsSync(file)) throw new Error(`Task ${taskId} already exists in ${dir}`);
    mkdirSync(dir, { recursive: true });
    appendFileSync(file, '');
    return new TaskLog(taskId, file, [], now, redactor);
  }

  /**
   * Opens an existing task's log. A torn last line (a crash mid-write) is cut off the file and kept
   * in `events.jsonl.torn`, so the next append starts on a line of its own.
   */
  static open(storageDir: string, taskId: string, now: () => number = Date.now, redactor?: SecretRedactor): TaskLog {
    const file = join(taskDir(storageDir, taskId), 'events.jsonl');
    if (!existsSync(file)) throw new Error(`No task with id "${taskId}" in ${storageDir}`);
    const { events, repair } = parseLog(readFileSync(file), file);
    if (repair?.kind === 'cut') {
      appendFileSync(`${file}.torn`, repair.torn);
      truncateSync(file, repair.at);
    } else if (repair?.kind === 'end-line') {
      appendFileSync(file, '\n');
    }
    return new TaskLog(taskId, file, events, now, redactor);
  }

  /** An in-memory log (nothing written), for replays and tests. */
  static inMemory(taskId: string, events: readonly TaskEvent[] = [], now: () => number = Date.now): TaskLog {
    return new TaskLog(taskId, '', [...events], now);
  }

  get events(): readonly TaskEvent[] {
    return this.log;
  }

  /**
   * Appends an event, writes it through, and tells the listeners. The user's secrets are redacted
   * here, so neither the file, the projections sent to the model, nor any UI ever holds them.
   */
  append<E extends NewEvent>(event: E): E & { seq: number; ts: number } {
    const stamped = { ...event, seq: this.log.length, ts: this.now() } as E & { seq: number; ts: number };
    const full = this.redactor ? this.redactor.redactDeep(stamped) : stamped;
    if (this.file) appendFileSync(this.file, `${storedLine(full as unknown as TaskEvent)}\n`);
    this.log.push(full as unknown as TaskEvent);
    for (const listener of this.listeners) listener(full as unknown as TaskEvent);
    return full;
  }

  /** Calls the listener for each appended event; returns a function that stops it. */
  onAppend(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** How to make a log end on a line boundary again: cut a torn line off at a byte offset, or end the last line. */
type LogRepair = { readonly kind: 'cut'; readonly at: number; readonly torn: Buffer } | { readonly kind: 'end-line' };

/**
 * Reads a log's bytes. Every complete line must parse; text after the last newline is a line a
 * crash tore (cut off), or a whole event whose newline never reached the disk (kept, line ended).
 */
function parseLog(bytes: Buffer, file: string): { events: TaskEvent[]; repair?: LogRepair } {
  const events: TaskEvent[] = [];
  for (const { text, number, start, last } of forwardLines(bytes)) {
    if (text.trim() !== '') {
      let parsed: StoredLine;
      try {
        parsed = JSON.parse(text) as StoredLine;
      } catch (error) {
        if (last) return { events, repair: { kind: 'cut', at: start, torn: bytes.subarray(start) } };
        throw new Error(`Task log ${file} is corrupt at line ${number}: ${(error as Error).message}`);
      }
      // Lines of older versions are brought to the current shapes here, so no reader sees them.
      try {
        events.push(eventFromLine(parsed, events));
      } catch (error) {
        throw new Error(`Task log ${file} cannot be read at line ${number}: ${(error as Error).message}`);
      }
    }
    if (last) return { events, repair: { kind: 'end-line' } };
  }
  return { events };
}

/**
 * A stored task's readable events, read without opening the log for writing: a damaged line is left
 * out and said in `problems` (readLogTolerantly), and the log's size and time say which version
 * was read. Throws only when the log cannot be read at all.
 */
export function readStoredTaskTolerantly(storageDir: string, taskId: string): StoredTaskRead {
  const file = taskEventsFile(storageDir, taskId);
  const bytes = readFileSync(file);
  const stat = statSync(file);
  return { file, size: bytes.length, mtimeMs: stat.mtimeMs, ...readLogTolerantly(bytes) };
}

/** What `readStoredTaskTolerantly` read. */
export interface StoredTaskRead {
  readonly file: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly events: TaskEvent[];
  readonly problems: LogProblem[];
}

/** A stored task's events, read without opening the log for writing; throws when it is missing or corrupt. */
export function readTaskEvents(storageDir: string, taskId: string): TaskEvent[] {
  return readEvents(join(taskDir(storageDir, taskId), 'events.jsonl'));
}

function readEvents(file: string): TaskEvent[] {
  return parseLog(readFileSync(file), file).events;
}

/** A stored task, as listed in the history. */
export interface StoredTaskSummary {
  readonly taskId: string;
  readonly task: string;
  readonly startedAt: number;
  readonly updatedAt: number;
  readonly status: 'completed' | 'aborted' | 'failed' | 'interrupted';
  /** The workspace folder it ran in. */
  readonly cwd: string;
  /** The git worktree it ran in, when it had one of its own. */
  readonly worktree?: TaskWorktree;
  /** The checkpoint snapshots its log names (to measure or keep their storage). */
  readonly snapshots: readonly string[];
  /** In a multi-root workspace, the snapshots of each other folder, by the folder's path. */
  readonly folderSnapshots?: Readonly<Record<string, readonly string[]>>;
  /** US dollars it cost, when its models' prices are known. */
  readonly cost?: number;
}

/**
 * Lists the tasks under a storage root, newest first. A log that cannot be read (corrupt,
 * unreadable) is left out and reported to `warn` (default: a process warning), so one bad task
 * never hides the others.
 */
export function listStoredTasks(storageDir: string, warn: (message: string) => void = defaultWarn): StoredTaskSummary[] {
  const root = join(storageDir, 'tasks');
  if (!existsSync(root)) return [];
  const summaries: StoredTaskSummary[] = [];
  for (const taskId of readdirSync(root)) {
    const file = join(root, taskId, 'events.jsonl');
    try {
      const summary = existsSync(file) ? summarizeTaskLog(taskId, readFileSync(file), file, () => statSync(file).mtimeMs) : undefined;
      if (summary) summaries.push(summary);
    } catch (error) {
      warn(skippedTaskWarning(taskId, error));
    }
  }
  return summaries.sort((a, b) => b.updatedAt - a.updatedAt);
}

/** What the history says about a task whose log could not be read. */
export function skippedTaskWarning(taskId: string, error: unknown): string {
  return `Skipped task ${taskId} in the history: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * A stored task's history entry from its log's bytes (`file` names it in errors; `mtimeMs` dates a
 * log without timestamps); undefined for a log that never started a task. Throws when it is corrupt.
 */
export function summarizeTaskLog(taskId: string, bytes: Buffer, file: string, mtimeMs: () => number): StoredTaskSummary | undefined {
  return summarizeTask(taskId, parseLog(bytes, file).events, mtimeMs);
}

/** The history entry of a task from its events (`mtimeMs` dates a log without timestamps); undefined when they hold no start (not a task). */
export function summarizeTask(taskId: string, events: readonly TaskEvent[], mtimeMs: () => number): StoredTaskSummary | undefined {
  const started = events.find((e) => e.type === 'task_started');
  if (started?.type !== 'task_started') return undefined;
  const cost = usageTotals(events).cost;
  // The user may have edited the task's first message and run it again (a rewind that replaces it).
  const edited = events.findLast((e) => e.type === 'conversation_rewound' && e.task !== undefined);
  return {
    taskId,
    task: edited?.type === 'conversation_rewound' && edited.task !== undefined ? edited.task : started.task,
    startedAt: started.ts,
    updatedAt: events.at(-1)?.ts ?? mtimeMs(),
    status: taskStatus(events),
    cwd: started.cwd,
    ...(started.worktree ? { worktree: started.worktree } : {}),
    snapshots: snapshotsOfTask(events),
    ...folderSnapshotsOf(events),
    ...(cost === undefined ? {} : { cost }),
  };
}

function folderSnapshotsOf(events: readonly TaskEvent[]): Pick<StoredTaskSummary, 'folderSnapshots'> {
  const folders = [...checkpointFoldersOfTask(events).keys()];
  return folders.length > 0 ? { folderSnapshots: Object.fromEntries(folders.map((path) => [path, folderSnapshotsOfTask(events, path)])) } : {};
}

function defaultWarn(message: string): void {
  process.emitWarning(message);
}

/** How a task's log ends. */
export function taskStatus(events: readonly TaskEvent[]): StoredTaskSummary['status'] {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    // A task that handed over to a new one (new_task) ended as planned.
    if (event.type === 'task_completed' || event.type === 'new_task_requested') return 'completed';
    if (event.type === 'task_aborted') return 'aborted';
    if (event.type === 'error') return 'failed';
    if (event.type === 'user_message' || event.type === 'task_resumed') break;
  }
  return 'interrupted';
}
