import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceCheckpoints } from '../core/checkpoints/workspace-checkpoints.js';
import { listCheckpoints, type RewindOutcome, type RewindScope, rewindTask, rewindToMessage } from '../core/checkpoints/rewind-task.js';
import type { TaskLog } from '../core/log/task-log.js';
import type { CheckpointViews, ComparedFile } from './panel-ports.js';

/** A live task's log and its workspace's checkpoint store: what the panel's checkpoint actions work on. */
export interface CheckpointTarget {
  readonly log: TaskLog;
  /** Undefined when checkpoints are off for the workspace. */
  readonly store: WorkspaceCheckpoints | undefined;
  readonly cwd: string;
}

/** Shows every file that differs between the checkpoint and the workspace now; returns how many. */
export async function compareWithCheckpoint(target: CheckpointTarget, checkpointId: string, views: CheckpointViews): Promise<number> {
  const store = storeOf(target);
  const checkpoint = listCheckpoints(target.log.events).find((c) => c.id === checkpointId);
  if (!checkpoint) throw new Error(`This task has no checkpoint ${checkpointId} (any more).`);
  // What a restore would write (changed or deleted since) or delete (created since) is what differs, in every folder.
  const plan = await store.planRestore(checkpoint, checkpoint);
  const files: ComparedFile[] = plan.folders
    .flatMap(({ folder, plan: folderPlan }) => {
      const root = folder ? checkpoint.folders?.find((f) => f.path === folder.path)?.root : checkpoint.root;
      const folderStore = folder?.store ?? store.primary;
      return [...folderPlan.writes.map((w) => w.path), ...folderPlan.deletes].map((path) => {
        const absolutePath = join(folder?.path ?? target.cwd, path);
        return {
          path: folder ? `${folder.name}/${path}` : path,
          absolutePath,
          before: () => (root ? folderStore.contentAt(root, path)?.toString('utf8') : undefined),
          existsNow: existsSync(absolutePath),
        };
      });
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (files.length > 0) await views.showChanges(`Checkpoint ${checkpointId} ↔ now`, files);
  return files.length;
}

/** Puts the files, the conversation or both back to a checkpoint; asks before overwriting later changes. Undefined: the user kept their changes. */
export function restoreCheckpoint(
  target: CheckpointTarget,
  checkpointId: string,
  scope: RewindScope,
  views: CheckpointViews,
): Promise<RewindOutcome | undefined> {
  return withConsent(views, `Restore checkpoint ${checkpointId}?`, (force) => rewindTask(target.log, target.store, { checkpointId, scope, force }));
}

/** Rewinds to just before the user's message at `seq` (and its files, with `restoreFiles`), so the edited text can be sent. */
export function rewindForEdit(
  target: CheckpointTarget,
  seq: number,
  text: string,
  restoreFiles: boolean,
  views: CheckpointViews,
): Promise<RewindOutcome | undefined> {
  return withConsent(views, 'Edit the message and run again?', (force) =>
    rewindToMessage(target.log, target.store, seq, { files: restoreFiles, force, firstMessageText: text }),
  );
}

/** Runs a rewind; when it would overwrite files changed after the task's last step, lists them and runs it again only if the user agrees. */
async function withConsent(views: CheckpointViews, question: string, rewind: (force: boolean) => Promise<RewindOutcome>): Promise<RewindOutcome | undefined> {
  const outcome = await rewind(false);
  if (outcome.kind !== 'conflicts') return outcome;
  const shown = outcome.files.slice(0, 20);
  const more = outcome.files.length - shown.length;
  const detail = `These files changed after Smith's last step and would be overwritten:\n${shown.join('\n')}${more > 0 ? `\n… and ${more} more` : ''}`;
  if (!(await views.confirm(question, detail, 'Overwrite my changes'))) return undefined;
  return rewind(true);
}

function storeOf(target: CheckpointTarget): WorkspaceCheckpoints {
  if (!target.store) throw new Error('Checkpoints are off for this workspace (smith.checkpoints.enabled), so there is nothing to compare.');
  return target.store;
}
