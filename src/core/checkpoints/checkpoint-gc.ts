import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TaskEvent } from '../log/events.js';
import { readTaskEvents } from '../log/task-log.js';
import { CheckpointStore, hasCheckpointStore } from './checkpoint-store.js';
import { NOTHING_IGNORED } from '../workspace/ignore-policy.js';
import { fileVersionsOfTask, folderSnapshotsOfTask, snapshotsOfTask } from '../log/task-snapshots.js';

/**
 * A workspace's store opened to measure or collect it, not to snapshot (so no ignore rules are
 * needed); undefined when the workspace has none.
 */
export function inspectCheckpointStore(storageDir: string, workspaceRoot: string): CheckpointStore | undefined {
  return hasCheckpointStore(storageDir, workspaceRoot) ? new CheckpointStore({ storageDir, workspaceRoot, ignore: NOTHING_IGNORED }) : undefined;
}

/**
 * Frees the checkpoint storage no stored task of this workspace uses any more (the tasks the user
 * deleted): a task uses it as its workspace, or as another folder of its multi-root workspace. Logs that cannot be read keep everything: a damaged log must not cost a task its
 * checkpoints. Returns the bytes freed.
 */
export function collectCheckpointGarbage(store: CheckpointStore, storageDir: string, workspaceRoot: string, graceMs?: number): number {
  const live: string[] = [];
  const versions: string[] = [];
  let unreadable = false;
  const root = resolve(workspaceRoot);
  const tasksDir = join(storageDir, 'tasks');
  for (const taskId of existsSync(tasksDir) ? readdirSync(tasksDir) : []) {
    let events: readonly TaskEvent[];
    try {
      events = readTaskEvents(storageDir, taskId);
    } catch (error) {
      // A folder without a log is no task; a log that cannot be read might be one.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') unreadable = true;
      continue;
    }
    const started = events.find((e) => e.type === 'task_started');
    if (started?.type === 'task_started' && resolve(started.cwd) === root) {
      live.push(...snapshotsOfTask(events));
      // File versions are kept in the store of the task's own folder, whichever folder the file is in.
      versions.push(...fileVersionsOfTask(events));
    }
    live.push(...folderSnapshotsOfTask(events, root));
  }
  if (unreadable) return 0;
  return store.collectGarbage(live, graceMs, versions);
}

/** Bytes of checkpoint storage a task's snapshots take (objects shared with other tasks included). */
export function checkpointBytesOfTask(store: CheckpointStore, events: readonly TaskEvent[]): number {
  return store.storedSize(snapshotsOfTask(events));
}
