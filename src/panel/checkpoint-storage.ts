import { collectCheckpointGarbage, inspectCheckpointStore } from '../core/checkpoints/checkpoint-gc.js';
import type { CheckpointStore } from '../core/checkpoints/checkpoint-store.js';
import type { StoredTaskSummary } from '../core/log/task-log.js';
import type { TaskEvent } from '../core/log/events.js';
import { checkpointFoldersOfTask } from '../core/log/task-snapshots.js';

/**
 * Each stored task with the bytes its checkpoints take (contents shared with other tasks counted
 * for each), for the history list; undefined for a task without checkpoints. Tasks of other
 * workspaces are measured in their own workspace's store, the other folders of a multi-root
 * workspace in theirs.
 */
export function checkpointBytesOf(storageDir: string, summaries: readonly StoredTaskSummary[]): [StoredTaskSummary, number | undefined][] {
  const stores = new Map<string, CheckpointStore | undefined>();
  const storeOf = (folder: string) => {
    if (!stores.has(folder)) stores.set(folder, inspectCheckpointStore(storageDir, folder));
    return stores.get(folder);
  };
  return summaries.map((summary) => {
    if (summary.snapshots.length === 0) return [summary, undefined];
    try {
      const primary = storeOf(summary.cwd)?.storedSize(summary.snapshots);
      if (primary === undefined) return [summary, undefined];
      const others = Object.entries(summary.folderSnapshots ?? {}).reduce((sum, [folder, roots]) => sum + (storeOf(folder)?.storedSize(roots) ?? 0), 0);
      return [summary, primary + others];
    } catch {
      // A damaged store must not hide the history; the size is simply not shown.
      return [summary, undefined];
    }
  });
}

/**
 * Frees the checkpoint contents no remaining task uses (after a task was deleted), in the stores
 * of every folder the deleted task's checkpoints covered (`events`: its log, read before deletion).
 */
export function collectAfterDelete(storageDir: string, events: readonly TaskEvent[], warn: (message: string) => void): void {
  const started = events.find((e) => e.type === 'task_started');
  const folders = [...(started?.type === 'task_started' ? [started.cwd] : []), ...checkpointFoldersOfTask(events).keys()];
  for (const folder of folders) {
    const store = inspectCheckpointStore(storageDir, folder);
    if (!store) continue;
    try {
      collectCheckpointGarbage(store, storageDir, folder, 0);
    } catch (error) {
      warn(`Could not free the deleted task's checkpoints: ${(error as Error).message}`);
    }
  }
}
