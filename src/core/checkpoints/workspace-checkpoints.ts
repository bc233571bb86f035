import type { CheckpointFolder } from '../log/checkpoint-events.js';
import type { CheckpointStore, RestorePlan } from './checkpoint-store.js';
import type { SkippedFile } from './workspace-snapshot.js';

/** Another folder of a multi-root workspace, with its own checkpoint store. */
interface FolderStore {
  /** The name its paths are shown with (`<name>/src/a.ts`). */
  readonly name: string;
  readonly path: string;
  readonly store: CheckpointStore;
}

/** A checkpoint's snapshots: the primary folder's, and those of the workspace's other folders. */
export interface CheckpointRoots {
  readonly root: string;
  readonly folders?: readonly CheckpointFolder[];
}

/** One snapshot of every folder; `changed` and `skipped` name other folders' files `<name>/…`. */
interface WorkspaceSnapshot extends CheckpointRoots {
  readonly folders: readonly CheckpointFolder[];
  readonly changed: readonly string[];
  readonly skipped: readonly SkippedFile[];
}

/** What restoring a checkpoint would do in one folder. */
interface FolderRestorePlan {
  readonly folder: FolderStore | undefined;
  readonly plan: RestorePlan;
}

/** What restoring a checkpoint would do in every folder it holds. */
interface WorkspaceRestorePlan {
  readonly folders: readonly FolderRestorePlan[];
  /** Every file written, deleted or in conflict, other folders' as `<name>/…`. */
  readonly writes: readonly string[];
  readonly deletes: readonly string[];
  readonly conflicts: readonly string[];
  /** Files left as they are because a snapshot did not keep them, with why (see RestorePlan.untouched). */
  readonly untouched: readonly SkippedFile[];
  /** The workspace as it was just before (so the restore can be undone). */
  readonly current: CheckpointRoots;
}

/**
 * The checkpoints of a workspace: the primary folder's store and, in a multi-root workspace, one
 * store per other folder (each keyed by its own path, as a single-folder workspace's is). A
 * checkpoint names each folder's snapshot; a restore puts every folder it names back.
 */
export class WorkspaceCheckpoints {
  constructor(
    readonly primary: CheckpointStore,
    readonly others: readonly FolderStore[] = [],
  ) {}

  /** Scans every folder and stores what changed. */
  async snapshot(signal?: AbortSignal): Promise<WorkspaceSnapshot> {
    const [main, ...rest] = await Promise.all([this.primary.snapshot(signal), ...this.others.map((folder) => folder.store.snapshot(signal))]);
    const folders = this.others.map((folder, index) => ({ folder, result: rest[index]! }));
    return {
      root: main!.root,
      folders: folders.map(({ folder, result }) => ({ path: folder.path, name: folder.name, root: result.root })),
      changed: [...main!.changed, ...folders.flatMap(({ folder, result }) => prefixed(folder, result.changed))],
      skipped: [...main!.skipped, ...folders.flatMap(({ folder, result }) => result.skipped.map((file) => ({ ...file, path: `${folder.name}/${file.path}` })))],
    };
  }

  /**
   * What restoring `target` would change now in each folder it holds (a folder added to the
   * workspace after the checkpoint is left as it is). `latest` is the task's newest checkpoint:
   * files that differ from it now were changed by someone else since.
   */
  async planRestore(target: CheckpointRoots, latest: CheckpointRoots): Promise<WorkspaceRestorePlan> {
    const plans: FolderRestorePlan[] = [{ folder: undefined, plan: await this.primary.planRestore(target.root, latest.root) }];
    for (const folder of this.others) {
      const wanted = target.folders?.find((f) => f.path === folder.path);
      if (!wanted) continue;
      const since = latest.folders?.find((f) => f.path === folder.path)?.root ?? wanted.root;
      plans.push({ folder, plan: await folder.store.planRestore(wanted.root, since) });
    }
    const named = (pick: (plan: RestorePlan) => readonly string[]) => plans.flatMap(({ folder, plan }) => (folder ? prefixed(folder, pick(plan)) : pick(plan)));
    return {
      folders: plans,
      writes: named((plan) => plan.writes.map((write) => write.path)),
      deletes: named((plan) => plan.deletes),
      conflicts: named((plan) => plan.conflicts),
      untouched: plans.flatMap(({ folder, plan }) => plan.untouched.map((file) => (folder ? { ...file, path: `${folder.name}/${file.path}` } : file))),
      current: {
        root: plans[0]!.plan.current,
        folders: plans.flatMap(({ folder, plan }) => (folder ? [{ path: folder.path, name: folder.name, root: plan.current }] : [])),
      },
    };
  }

  /** Applies a plan, folder by folder (each crash-safe); returns the files that could not be restored. */
  restore(plan: WorkspaceRestorePlan): string[] {
    return plan.folders.flatMap(({ folder, plan: folderPlan }) => {
      const failures = (folder?.store ?? this.primary).restore(folderPlan);
      return folder ? prefixed(folder, failures) : failures;
    });
  }

  /** Writes every folder's stat cache now (when a task ends). */
  flushStatCache(): void {
    this.primary.flushStatCache();
    for (const folder of this.others) folder.store.flushStatCache();
  }
}

function prefixed(folder: FolderStore, paths: readonly string[]): string[] {
  return paths.map((path) => `${folder.name}/${path}`);
}
