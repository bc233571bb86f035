// Writes an imported session as a Smith task: all of its log or nothing. The log is written in a
// staging folder outside the history and moved into `<storage>/tasks/` in one rename, so a crash or
// an error leaves no half-written task behind.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openWorkspaceCheckpoints } from '../checkpoints/open-checkpoint-store.js';
import { CHECKPOINT_PATHS_SHOWN } from '../checkpoints/task-checkpoints.js';
import type { CheckpointCreated } from '../log/checkpoint-events.js';
import type { NewEvent } from '../log/events.js';
import { TaskLog, taskDir } from '../log/task-log.js';
import { DEFAULT_MODE_SLUG } from '../modes/built-in-modes.js';
import type { SecretRedactor } from '../secrets/secret-redactor.js';
import { newTaskId } from '../task/new-task-id.js';
import { loadWorkspaceIgnore } from '../workspace/smith-ignore.js';
import { WorkspaceRoots } from '../workspace/workspace-roots.js';
import { ImportError, type ImportedSession } from './import-types.js';

/** Where imports are staged, beside the tasks (same file system, so the final move is one rename). */
const STAGING = 'import-staging';

/** How the task is written. */
export interface WriteImportOptions {
  readonly storageDir: string;
  /** Applied to every event, as the task log applies it to Smith's own (docs/tools.md#secrets). */
  readonly redactor?: SecretRedactor;
  /** Take a checkpoint of the workspace as it is now, so the task can be replayed (default true). */
  readonly checkpoint?: boolean;
  readonly now?: () => number;
}

/** The task written. */
export interface WrittenImport {
  readonly taskId: string;
  readonly cwd: string;
  /** What was not carried over, as stored with the task. */
  readonly notCarried: readonly string[];
  readonly events: number;
}

/** Writes the session as a new task in the store; throws ImportError (and writes nothing) when it cannot. */
export async function writeImportedTask(session: ImportedSession, options: WriteImportOptions): Promise<WrittenImport> {
  const now = options.now ?? Date.now;
  const cwd = session.cwd;
  if (!cwd) throw new ImportError(`the ${session.path} session does not say which folder it ran in; name it with --cwd`);
  const notCarried = [...session.notCarried];
  const checkpoint = options.checkpoint === false ? undefined : await importCheckpoint(options.storageDir, cwd, notCarried);
  if (options.checkpoint === false)
    notCarried.push('a checkpoint of the workspace (turned off for this import), so the task cannot be replayed until it runs again');
  const taskId = newTaskId(now());
  const staging = join(options.storageDir, STAGING, taskId);
  let ts = session.task.ts || now();
  const log = TaskLog.create(staging, taskId, () => ts, options.redactor);
  try {
    const started: NewEvent = {
      type: 'task_started',
      taskId,
      task: session.task.text,
      cwd,
      provider: session.provider ?? 'unknown',
      model: session.model ?? 'unknown',
      mode: 'act',
      modeSlug: DEFAULT_MODE_SLUG,
      ...(session.task.context ? { context: session.task.context } : {}),
      ...(session.task.images?.length ? { images: session.task.images } : {}),
      imported: { source: session.source, path: session.path, sessionId: session.sessionId, notCarried },
    };
    log.append(started);
    for (const { event, ts: at } of session.events) {
      // Times only go forward, as in a log Smith wrote; a source without times keeps the last one.
      ts = Math.max(ts, at || ts);
      log.append(event);
    }
    if (checkpoint) log.append({ ...checkpoint, afterSeq: log.events.length - 1 });
    const target = taskDir(options.storageDir, taskId);
    if (existsSync(target)) throw new ImportError(`a task ${taskId} already exists`);
    mkdirSync(join(options.storageDir, 'tasks'), { recursive: true });
    renameSync(taskDir(staging, taskId), target);
    return { taskId, cwd, notCarried, events: log.events.length };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * A checkpoint of the workspace as it is at the import (Smith has none from before: the other
 * agent's file history is not carried over), so a replay has a starting point. Undefined, and said
 * in `notCarried`, when the folder is not on this machine or checkpoints cannot be taken there.
 */
async function importCheckpoint(
  storageDir: string,
  cwd: string,
  notCarried: string[],
): Promise<Omit<NewEvent & CheckpointCreated, 'seq' | 'ts' | 'afterSeq'> | undefined> {
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    notCarried.push(`a checkpoint of the workspace: ${cwd} is not a folder on this machine, so the task cannot be replayed until it runs again`);
    return undefined;
  }
  const reasons: string[] = [];
  const workspace = WorkspaceRoots.single(cwd);
  const store = openWorkspaceCheckpoints(workspace, { storageDir, ignore: await loadWorkspaceIgnore(workspace), notify: (message) => reasons.push(message) });
  if (!store) {
    notCarried.push(`a checkpoint of the workspace (${reasons.join(' ') || 'checkpoints cannot be taken there'})`);
    return undefined;
  }
  const snapshot = await store.snapshot();
  store.flushStatCache();
  return {
    type: 'checkpoint_created',
    checkpointId: '0',
    root: snapshot.root,
    changed: [],
    changedCount: 0,
    skipped: snapshot.skipped.slice(0, CHECKPOINT_PATHS_SHOWN),
  };
}
