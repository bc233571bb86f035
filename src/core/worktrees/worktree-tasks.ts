// The worktree tasks' one entry point for hosts (the CLI, the panel): make, list, diff, merge,
// open a pull request, discard. Each reports every git command to `listener` before it runs.
export { createWorktree, type CreateWorktreeRequest, type CreatedWorktree } from './create-worktree.js';
export { discardWorktree, type DiscardResult } from './discard-worktree.js';
export type { CommandListener, GitCommand } from './git-command.js';
export { mergeWorktree, type MergeRequest, type MergeResult } from './merge-worktree.js';
export { openPullRequest, type PullRequestRequest, type PullRequestResult } from './pull-request.js';
export { diffWorktree, type ChangedFile, type Patch, type WorktreeDiff } from './worktree-diff.js';
export type { WorktreeTaskEntry } from './worktree-list.js';
export { type TaskWorktree, WorktreeError, type WorktreeErrorCode, type WorktreeSettings } from './worktree-types.js';
import type { CommandListener } from './git-command.js';
import { localBranches, readRepository } from './repository.js';
import { type WorktreeTaskEntry, worktreeTasks } from './worktree-list.js';

/** The worktree tasks of the repository the workspace belongs to, each with its branch, folder and base. */
export async function listWorktrees(workspace: string, listener?: CommandListener): Promise<WorktreeTaskEntry[]> {
  const repo = await readRepository(workspace, listener);
  return worktreeTasks(repo.top, listener);
}
export { parseWorktreeSettings } from './worktree-settings.js';

/** The local branches a new worktree can start from, and the one checked out in the workspace (the default base; absent on a detached HEAD). */
export async function baseBranches(workspace: string, listener?: CommandListener): Promise<{ branches: string[]; current?: string }> {
  const repo = await readRepository(workspace, listener);
  return { branches: await localBranches(repo.top, listener), ...(repo.branch ? { current: repo.branch } : {}) };
}
