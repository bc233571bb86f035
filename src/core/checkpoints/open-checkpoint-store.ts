import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { CheckpointStore } from './checkpoint-store.js';
import { describeRecoveredRestore } from './interrupted-restores.js';
import { WorkspaceCheckpoints } from './workspace-checkpoints.js';

/** The user's checkpoint settings (`smith.checkpoints.*`, `--no-checkpoints`). */
export interface CheckpointSettings {
  /** Default true. */
  readonly enabled?: boolean;
  /** Files larger than this are not checkpointed (default 5 MB). */
  readonly maxFileBytes?: number;
}

/** What opening a workspace's store needs. */
interface OpenCheckpointStoreInput {
  readonly storageDir: string;
  readonly workspaceRoot: string;
  readonly ignore: IgnorePolicy;
  readonly settings?: CheckpointSettings;
  /** Tells the user why checkpoints are off, or what an interrupted restore left undone. */
  notify(message: string): void;
}

/**
 * Opens the workspace's checkpoint store, finishing a restore a crash interrupted; undefined when
 * checkpoints are off, or the workspace is the home folder or the file system's root, where a
 * snapshot would copy a whole disk's worth of personal files.
 */
export function openCheckpointStore(input: OpenCheckpointStoreInput): CheckpointStore | undefined {
  if (input.settings?.enabled === false) return undefined;
  const root = resolve(input.workspaceRoot);
  if (root === resolve(homedir()) || root === resolve('/')) {
    input.notify(`Checkpoints are off: the workspace is ${root === '/' ? 'the root folder' : 'your home folder'}. Open a project folder to have them.`);
    return undefined;
  }
  const store = new CheckpointStore({
    storageDir: input.storageDir,
    workspaceRoot: root,
    ignore: input.ignore,
    ...(input.settings?.maxFileBytes ? { maxFileBytes: input.settings.maxFileBytes } : {}),
  });
  const recovered = store.recoverInterruptedRestore();
  if (recovered) input.notify(describeRecoveredRestore(recovered));
  return store;
}

/**
 * The checkpoints of every folder of a workspace: the primary folder's store, and one per other
 * folder of a multi-root workspace (a folder where checkpoints cannot be taken, such as the home
 * folder, is left out and the user told). Undefined when there are none for the primary folder.
 */
export function openWorkspaceCheckpoints(
  folders: { readonly primary: { readonly path: string }; readonly others: readonly { readonly name: string; readonly path: string }[] },
  input: Omit<OpenCheckpointStoreInput, 'workspaceRoot'>,
): WorkspaceCheckpoints | undefined {
  const primary = openCheckpointStore({ ...input, workspaceRoot: folders.primary.path });
  if (!primary) return undefined;
  const others = folders.others.flatMap((folder) => {
    const store = openCheckpointStore({ ...input, workspaceRoot: folder.path });
    return store ? [{ name: folder.name, path: folder.path, store }] : [];
  });
  return new WorkspaceCheckpoints(primary, others);
}
