// Discarding a task: its worktree and its branch go. Work that exists nowhere else (uncommitted
// changes, commits its base does not hold) refuses unless forced, so the caller can ask the user.
import { rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type CommandListener, git } from './git-command.js';
import { baseOf, findWorktree, pendingChanges, unmergedCommits } from './find-worktree.js';
import { WorktreeError } from './worktree-types.js';

/** What a discard removed. */
export interface DiscardResult {
  readonly name: string;
  readonly branch: string;
  readonly path: string;
  /** What was thrown away because the discard was forced. */
  readonly lostChanges: readonly string[];
  readonly lostCommits: readonly string[];
}

/** Removes the task's worktree and branch; 'uncommitted-changes' or 'unmerged-commits' unless `force`. */
export async function discardWorktree(
  workspace: string,
  name: string,
  options: { readonly force?: boolean; readonly copyFiles?: readonly string[] } = {},
  listener?: CommandListener,
): Promise<DiscardResult> {
  const { repo, task } = await findWorktree(workspace, name, listener);
  const changes = await pendingChanges(task, options.copyFiles ?? [], listener);
  if (changes.length > 0 && !options.force) {
    throw new WorktreeError(
      'uncommitted-changes',
      `The worktree ${task.path} has uncommitted changes (${changes.slice(0, 10).join(', ')}${changes.length > 10 ? ' …' : ''}); discarding would lose them. Discard with force to drop them.`,
      changes,
    );
  }
  let commits: string[] = [];
  if (task.base) commits = await unmergedCommits(repo, baseOf(task), task.branch, listener);
  else if (!options.force) {
    throw new WorktreeError(
      'unmerged-commits',
      `${task.branch} tracks no base branch, so whether its commits were merged is unknown. Discard with force to drop it.`,
    );
  }
  if (commits.length > 0 && !options.force) {
    throw new WorktreeError(
      'unmerged-commits',
      `${task.branch} has ${commits.length} commit(s) ${task.base} does not hold: ${commits.slice(0, 5).join('; ')}. Merge them, or discard with force to drop them.`,
    );
  }
  // --force: the checks above decided; it also removes ignored files (build output, copied .env) and a folder already gone.
  const removed = await git(['worktree', 'remove', '--force', task.path], repo.top, listener);
  if (removed.code !== 0) throw new WorktreeError('git-failed', `git worktree remove failed: ${(removed.stderr || removed.stdout).trim()}`);
  const deleted = await git(['branch', '-D', task.branch], repo.top, listener);
  if (deleted.code !== 0)
    throw new WorktreeError('git-failed', `The worktree is removed, but deleting ${task.branch} failed: ${(deleted.stderr || deleted.stdout).trim()}`);
  try {
    // The repository's folder under the worktrees' parent, once its last worktree is gone.
    rmdirSync(dirname(task.path));
  } catch {
    // Not empty: other tasks' worktrees are there.
  }
  return { name: task.name, branch: task.branch, path: task.path, lostChanges: options.force ? changes : [], lostCommits: options.force ? commits : [] };
}
