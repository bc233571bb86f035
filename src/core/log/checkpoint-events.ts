// The events of checkpoints: snapshots of the workspace, and going back to one.
import type { EventBase } from './event-base.js';

/** Another folder of a multi-root workspace in a checkpoint: its snapshot, in that folder's own store. */
export interface CheckpointFolder {
  readonly path: string;
  /** The name its files are shown with (`<name>/src/a.ts`). */
  readonly name: string;
  readonly root: string;
}

/**
 * The workspace as it was after the step ending at `afterSeq` (or, for checkpoint "0", when the
 * task started or resumed), stored in the workspace's checkpoint store under `root`.
 */
export interface CheckpointCreated extends EventBase {
  readonly type: 'checkpoint_created';
  /** "0", "1", … in the order taken; what the user names to compare or restore. */
  readonly checkpointId: string;
  readonly root: string;
  readonly afterSeq: number;
  /** Paths added, changed or removed since the previous checkpoint (at most CHECKPOINT_PATHS_SHOWN). */
  readonly changed: readonly string[];
  /** How many paths changed in all, when more than are listed. */
  readonly changedCount: number;
  /** Changed files the checkpoint does not hold (too large, unreadable), with why. */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
  /** In a multi-root workspace, each other folder's snapshot, in that folder's own store. */
  readonly folders?: readonly CheckpointFolder[];
}

/**
 * The user went back to an earlier point: events from `toSeq` up to this one no longer reach the
 * model or the chat (they stay in the log). `files`: the workspace was restored to `checkpointId`.
 */
export interface ConversationRewound extends EventBase {
  readonly type: 'conversation_rewound';
  /** The first event that is undone; undefined when only the files were restored. */
  readonly toSeq?: number;
  readonly checkpointId: string;
  readonly files: boolean;
  /** The workspace just before a file restore, so the restore itself can be undone. */
  readonly beforeRoot?: string;
  /** The other folders of a multi-root workspace just before that restore. */
  readonly beforeFolders?: readonly CheckpointFolder[];
  /** The task's first message as the user edited it (the rewind then keeps only `task_started`). */
  readonly task?: string;
}
