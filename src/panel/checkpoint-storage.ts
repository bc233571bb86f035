import { collectCheckpointGarbage, inspectCheckpointStore } from '../core/checkpoints/checkpoint-gc.js';
import type { CheckpointStore } from '../core/checkpoints/checkpoint-store.js';
import type { StoredTaskSummary } from '../core/task/task-log.js';

/**
 * Each stored task with the bytes its checkpoints take (contents shared with other tasks counted
 * for each), for the history list; undefined for a task without checkpoints. Tasks of other
 * workspaces are measured in their own workspace's store.
 */
export function checkpointBytesOf(storageDir: string, summaries: readonly StoredTaskSummary[]): [StoredTaskSummary, number | undefined][] {
  const stores = new Map<string, CheckpointStore | undefined>();
  return summaries.map((summary) => {
    if (summary.snapshots.length === 0) return [summary, undefined];
    if (!stores.has(summary.cwd)) stores.set(summary.cwd, inspectCheckpointStore(storageDir, summary.cwd));
    const store = stores.get(summary.cwd);
    try {
      return [summary, store?.storedSize(summary.snapshots)];
    } catch {
      // A damaged store must not hide the history; the size is simply not shown.
      return [summary, undefined];
    }
  });
}

/** Frees the checkpoint contents no remaining task of the workspace uses (after a task was deleted). */
export function collectAfterDelete(storageDir: string, workspaceRoot: string, warn: (message: string) => void): void {
  const store = inspectCheckpointStore(storageDir, workspaceRoot);
  if (!store) return;
  try {
    collectCheckpointGarbage(store, storageDir, workspaceRoot, 0);
  } catch (error) {
    warn(`Could not free the deleted task's checkpoints: ${(error as Error).message}`);
  }
}
