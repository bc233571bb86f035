// Merging a task's branch into its base where the base is checked out. Nothing is started that
// could leave the base's working tree half-merged: a merge or rebase under way there, or local
// changes in a file the merge touches, refuse first; conflicts are found with `git merge-tree`
// (which writes no working tree), and a merge that still fails is aborted.
import { existsSync } from 'node:fs';
import { type CommandListener, git, gitRead, gitReadOk } from './git-command.js';
import { commitPending } from './commit-pending.js';
import { baseOf, findWorktree, pendingChanges, statusPaths } from './find-worktree.js';
import { gitWorktrees } from './worktree-list.js';
import { WorktreeError } from './worktree-types.js';

/** How to merge: a fast-forward when possible else a merge commit, or one squashed commit. */
export interface MergeRequest {
  readonly squash?: boolean;
  /** The squash commit's message (default: "<branch>: squashed"). */
  readonly message?: string;
  /** Commit what the task left uncommitted first, with this message; absent: such changes refuse the merge. */
  readonly commitPending?: string;
  /** The user's copy patterns: files they name are never committed. */
  readonly copyFiles?: readonly string[];
}

/** What a merge did. */
export interface MergeResult {
  readonly kind: 'fast-forward' | 'merge-commit' | 'squash' | 'up-to-date';
  readonly base: string;
  readonly branch: string;
  /** Where the merge ran (the base's working tree). */
  readonly mergedIn: string;
  /** The base's commit after the merge. */
  readonly commit: string;
  /** Whether the task's uncommitted changes were committed first. */
  readonly committedPending: boolean;
}

/** Merges the task `name` of the workspace's repository into its base. */
export async function mergeWorktree(workspace: string, name: string, request: MergeRequest = {}, listener?: CommandListener): Promise<MergeResult> {
  const { repo, task } = await findWorktree(workspace, name, listener);
  const base = baseOf(task);
  const baseTree = (await gitWorktrees(repo.top, listener)).find((entry) => entry.branch === base && !entry.prunable);
  if (!baseTree) {
    throw new WorktreeError(
      'base-not-checked-out',
      `The base branch ${base} is not checked out anywhere: check it out (in ${repo.top}) to merge ${task.branch} into it.`,
    );
  }
  const mergedIn = baseTree.path;
  await refuseOperationUnderWay(mergedIn, listener);
  const committedPending = await commitOrRefuse(task, request, listener);
  const baseRef = `refs/heads/${base}`;
  const branchRef = `refs/heads/${task.branch}`;
  const result = (kind: MergeResult['kind'], commit: string): MergeResult => ({ kind, base, branch: task.branch, mergedIn, commit, committedPending });
  if ((await gitRead(['merge-base', '--is-ancestor', branchRef, baseRef], repo.top, listener)).code === 0) {
    return result('up-to-date', await head(mergedIn, listener));
  }
  // The files the merge brings in, against the base's local changes (staged, unstaged, untracked).
  const touched = (await gitReadOk(['diff', '--name-only', '--no-renames', '-z', `${baseRef}...${branchRef}`], repo.top, listener)).split('\0').filter(Boolean);
  const local = new Set(statusPaths(await gitReadOk(['status', '--porcelain=v1', '-z', '--untracked-files=all'], mergedIn, listener)));
  const dirty = touched.filter((path) => local.has(path));
  if (dirty.length > 0) {
    throw new WorktreeError(
      'dirty-base',
      `${mergedIn} has local changes in files the merge of ${task.branch} would change: ${dirty.join(', ')}. Commit or stash them there, then merge again.`,
      dirty,
    );
  }
  const trial = await gitRead(['merge-tree', '--write-tree', '--name-only', '--no-messages', baseRef, branchRef], repo.top, listener);
  if (trial.code === 1) {
    const files = trial.stdout.split('\n').slice(1).filter(Boolean);
    throw new WorktreeError(
      'conflict',
      `${task.branch} conflicts with ${base} in: ${files.join(', ')}. Nothing was merged; resolve it in the worktree (merge ${base} there) and merge again.`,
      files,
    );
  }
  const fastForward = (await gitRead(['merge-base', '--is-ancestor', baseRef, branchRef], repo.top, listener)).code === 0;
  if (request.squash) {
    await runMerge(['merge', '--squash', task.branch], mergedIn, task.branch, listener);
    const committed = await git(['commit', '--quiet', '-m', request.message ?? `${task.branch}: squashed`], mergedIn, listener);
    if (committed.code !== 0) {
      throw new WorktreeError(
        'commit-failed',
        `The squashed changes of ${task.branch} are staged in ${mergedIn}, but the commit failed: ${(committed.stderr || committed.stdout).trim()}`,
      );
    }
    return result('squash', await head(mergedIn, listener));
  }
  await runMerge(['merge', '--no-edit', task.branch], mergedIn, task.branch, listener);
  return result(fastForward ? 'fast-forward' : 'merge-commit', await head(mergedIn, listener));
}

/** Runs the merge; on failure aborts it when git left one under way, and reports. */
async function runMerge(args: readonly string[], cwd: string, branch: string, listener?: CommandListener): Promise<void> {
  const merged = await git(args, cwd, listener);
  if (merged.code === 0) return;
  const unmerged = (await gitRead(['diff', '--name-only', '--diff-filter=U', '-z'], cwd, listener)).stdout.split('\0').filter(Boolean);
  if ((await gitRead(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], cwd, listener)).code === 0) await git(['merge', '--abort'], cwd, listener);
  throw new WorktreeError(
    unmerged.length > 0 ? 'conflict' : 'git-failed',
    `Merging ${branch} failed and was undone: ${(merged.stderr || merged.stdout).trim()}`,
    unmerged,
  );
}

/** Commits the task's pending changes when asked to, else refuses when there are any. */
async function commitOrRefuse(task: Parameters<typeof commitPending>[0], request: MergeRequest, listener?: CommandListener): Promise<boolean> {
  if (request.commitPending !== undefined) return commitPending(task, request.commitPending, request.copyFiles ?? [], listener);
  const pending = await pendingChanges(task, request.copyFiles ?? [], listener);
  if (pending.length > 0) {
    throw new WorktreeError(
      'uncommitted-changes',
      `The worktree ${task.path} has uncommitted changes (${pending.slice(0, 10).join(', ')}${pending.length > 10 ? ' …' : ''}): commit them, or let Smith commit them first.`,
      pending,
    );
  }
  return false;
}

/** Refuses while a merge, rebase, cherry-pick or revert is under way in `cwd`. */
async function refuseOperationUnderWay(cwd: string, listener?: CommandListener): Promise<void> {
  const names = ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'rebase-merge', 'rebase-apply'];
  const paths = (await gitReadOk(['rev-parse', '--path-format=absolute', ...names.flatMap((n) => ['--git-path', n])], cwd, listener)).trim().split('\n');
  const found = names.filter((_, i) => paths[i] && existsSync(paths[i]!));
  if (found.length > 0) {
    throw new WorktreeError('merge-in-progress', `${cwd} is in the middle of another operation (${found.join(', ')}): finish or abort it there first.`);
  }
}

async function head(cwd: string, listener?: CommandListener): Promise<string> {
  return (await gitReadOk(['rev-parse', 'HEAD'], cwd, listener)).trim();
}
