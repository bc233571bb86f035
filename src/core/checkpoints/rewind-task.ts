import type { CheckpointCreated } from '../log/checkpoint-events.js';
import type { TaskEvent } from '../log/events.js';
import type { TaskLog } from '../log/task-log.js';
import { visibleEvents } from '../log/visible-events.js';
import type { CheckpointRoots, WorkspaceCheckpoints } from './workspace-checkpoints.js';
import type { SkippedFile } from './workspace-snapshot.js';

/** A checkpoint as listed to the user. */
export interface CheckpointInfo {
  readonly id: string;
  readonly root: string;
  /** The step it follows (an event's position in the log). */
  readonly afterSeq: number;
  readonly ts: number;
  readonly changed: readonly string[];
  readonly changedCount: number;
  readonly skipped: CheckpointCreated['skipped'];
  /** The other folders' snapshots in a multi-root workspace. */
  readonly folders?: CheckpointCreated['folders'];
}

/** What to put back: the files, the conversation, or both. */
export type RewindScope = 'files' | 'conversation' | 'both';

/** A rewind the user asked for. */
interface RewindRequest {
  readonly checkpointId: string;
  readonly scope: RewindScope;
  /** Overwrite files changed after the task's last checkpoint (otherwise they are reported, and nothing is done). */
  readonly force?: boolean;
}

/** How a rewind went. */
export type RewindOutcome =
  | {
      readonly kind: 'rewound';
      readonly restored: readonly string[];
      readonly deleted: readonly string[];
      readonly failures: readonly string[];
      /** Files that differ from the checkpoint but were left as they are: a snapshot did not keep them. */
      readonly untouched: readonly SkippedFile[];
    }
  /** Nothing was done: these files changed after the last checkpoint and the restore would overwrite them. */
  | { readonly kind: 'conflicts'; readonly files: readonly string[] };

/** The task's checkpoints still in its conversation, oldest first. */
export function listCheckpoints(events: readonly TaskEvent[]): CheckpointInfo[] {
  return visibleEvents(events)
    .filter((e): e is CheckpointCreated & { seq: number; ts: number } => e.type === 'checkpoint_created')
    .map((e) => ({
      id: e.checkpointId,
      root: e.root,
      afterSeq: e.afterSeq,
      ts: e.ts,
      changed: e.changed,
      changedCount: e.changedCount,
      skipped: e.skipped,
      ...(e.folders ? { folders: e.folders } : {}),
    }));
}

/**
 * Puts the workspace and/or the conversation back to a checkpoint. The conversation is rewound by
 * an event (the undone part stays in the log); files are restored through the store, refusing
 * when that would overwrite changes made after the task's last checkpoint unless `force`.
 */
export async function rewindTask(log: TaskLog, store: WorkspaceCheckpoints | undefined, request: RewindRequest): Promise<RewindOutcome> {
  const checkpoint = findCheckpoint(log.events, request.checkpointId);
  const conversation = request.scope !== 'files';
  return restoreAndRecord(log, store, checkpoint, {
    files: request.scope !== 'conversation',
    force: request.force === true,
    ...(conversation ? { toSeq: checkpoint.afterSeq + 1 } : {}),
  });
}

/**
 * Rewinds to just before one of the user's messages so it can be sent again as edited: the
 * conversation from that message on is undone, and (with `files`) the workspace goes back to the
 * last checkpoint before it. The caller then sends the edited text (for the task's first message
 * the edit is recorded here, as the task's new text).
 */
export async function rewindToMessage(
  log: TaskLog,
  store: WorkspaceCheckpoints | undefined,
  messageSeq: number,
  options: { readonly files: boolean; readonly force?: boolean; readonly firstMessageText?: string },
): Promise<RewindOutcome> {
  const message = log.events[messageSeq];
  if (message?.type !== 'user_message' && message?.type !== 'task_started') throw new Error(`event ${messageSeq} is not a message of the user`);
  // Checkpoint "0" follows task_started itself: the workspace as the first message found it.
  const before = listCheckpoints(log.events)
    .filter((c) => c.afterSeq <= messageSeq)
    .at(-1);
  if (!before && options.files) throw new Error('no checkpoint before that message: its files cannot be restored');
  const first = message.type === 'task_started';
  const checkpoint = before ?? { id: '', root: '' };
  return restoreAndRecord(log, store, checkpoint, {
    files: options.files,
    force: options.force === true,
    toSeq: first ? messageSeq + 1 : messageSeq,
    ...(first && options.firstMessageText !== undefined ? { task: options.firstMessageText } : {}),
  });
}

async function restoreAndRecord(
  log: TaskLog,
  store: WorkspaceCheckpoints | undefined,
  checkpoint: Pick<CheckpointInfo, 'id' | 'root' | 'folders'>,
  how: { readonly files: boolean; readonly force: boolean; readonly toSeq?: number; readonly task?: string },
): Promise<RewindOutcome> {
  let outcome: RewindOutcome = { kind: 'rewound', restored: [], deleted: [], failures: [], untouched: [] };
  let before: CheckpointRoots | undefined;
  if (how.files) {
    if (!store) throw new Error('checkpoints are off for this workspace, so its files cannot be restored');
    const plan = await store.planRestore(checkpoint, latestRoots(log.events) ?? checkpoint);
    if (plan.conflicts.length > 0 && !how.force) return { kind: 'conflicts', files: plan.conflicts };
    const failures = store.restore(plan);
    before = plan.current;
    outcome = { kind: 'rewound', restored: plan.writes, deleted: plan.deletes, failures, untouched: plan.untouched };
  }
  log.append({
    type: 'conversation_rewound',
    checkpointId: checkpoint.id,
    files: how.files,
    ...(how.toSeq !== undefined ? { toSeq: how.toSeq } : {}),
    ...(before ? { beforeRoot: before.root } : {}),
    ...(before?.folders?.length ? { beforeFolders: before.folders } : {}),
    ...(how.task !== undefined ? { task: how.task } : {}),
  });
  return outcome;
}

/**
 * The workspace as the task last left it: its newest checkpoint, or the checkpoint a later file
 * restore put back (every folder's snapshot). A file that differs from this now was changed by
 * someone else.
 */
export function latestRoots(events: readonly TaskEvent[]): CheckpointRoots | undefined {
  const checkpoints = new Map<string, CheckpointRoots>();
  let latest: CheckpointRoots | undefined;
  for (const event of events) {
    if (event.type === 'checkpoint_created') {
      latest = { root: event.root, ...(event.folders ? { folders: event.folders } : {}) };
      checkpoints.set(event.checkpointId, latest);
    } else if (event.type === 'conversation_rewound' && event.files) {
      latest = checkpoints.get(event.checkpointId) ?? latest;
    }
  }
  return latest;
}

/** True when two checkpoints hold the same files in every folder. */
export function sameRoots(a: CheckpointRoots, b: CheckpointRoots): boolean {
  const folders = (roots: CheckpointRoots) => JSON.stringify((roots.folders ?? []).map((f) => [f.path, f.root]).sort());
  return a.root === b.root && folders(a) === folders(b);
}

function findCheckpoint(events: readonly TaskEvent[], id: string): CheckpointInfo {
  const all = listCheckpoints(events);
  const found = all.find((c) => c.id === id);
  if (!found)
    throw new Error(all.length === 0 ? 'this task has no checkpoints' : `no checkpoint "${id}" in this task; it has ${all.map((c) => c.id).join(', ')}`);
  return found;
}
