// Finding a worktree task by name, and the questions every finish asks of it: what its worktree
// has not committed, and whether its branch holds work its base does not.
import { copyPatternMatcher } from './copy-files.js';
import { type CommandListener, gitRead, gitReadOk } from './git-command.js';
import { type RepositoryFacts, readRepository } from './repository.js';
import { type WorktreeTaskEntry, worktreeTasks } from './worktree-list.js';
import { BRANCH_PREFIX } from './worktree-names.js';
import { WorktreeError } from './worktree-types.js';

/** A worktree task and the repository it belongs to. */
interface FoundWorktree {
  readonly repo: RepositoryFacts;
  readonly task: WorktreeTaskEntry;
}

/** The task named `name` (`fix-login` or `smith/fix-login`) of the workspace's repository; 'not-found' lists the others. */
export async function findWorktree(workspace: string, name: string, listener?: CommandListener): Promise<FoundWorktree> {
  const repo = await readRepository(workspace, listener);
  const tasks = await worktreeTasks(repo.top, listener);
  const wanted = name.startsWith(BRANCH_PREFIX) ? name.slice(BRANCH_PREFIX.length) : name;
  const task = tasks.find((entry) => entry.name === wanted);
  if (!task) {
    const names = tasks.map((entry) => entry.name);
    throw new WorktreeError(
      'not-found',
      `There is no worktree task "${name}" in ${repo.top}${names.length > 0 ? ` (there are: ${names.join(', ')})` : ' (there are none)'}.`,
    );
  }
  return { repo, task };
}

/** The task's base branch; refuses when its upstream was removed or points elsewhere. */
export function baseOf(task: WorktreeTaskEntry): string {
  if (!task.base) {
    throw new WorktreeError(
      'bad-base',
      `The branch ${task.branch} no longer tracks a local branch, so its base is unknown: set it with \`git branch --set-upstream-to=<base> ${task.branch}\`.`,
    );
  }
  return task.base;
}

/**
 * What `git status` lists as changed or untracked (not ignored) in the task's worktree, except the
 * files the copy patterns name (copies of the workspace's, lost by nobody); empty when its folder is gone.
 */
export async function pendingChanges(task: WorktreeTaskEntry, copyPatterns: readonly string[], listener?: CommandListener): Promise<string[]> {
  if (!task.exists) return [];
  const matcher = copyPatternMatcher(copyPatterns);
  const status = await gitReadOk(['status', '--porcelain=v1', '-z', '--untracked-files=all'], task.path, listener);
  return statusPaths(status).filter((path) => !matcher.ignores(path));
}

/** The paths of `git status --porcelain=v1 -z` output (both sides of a rename). */
export function statusPaths(status: string): string[] {
  const paths: string[] = [];
  const fields = status.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    paths.push(field.slice(3));
    // A rename or copy is followed by its source path.
    if (field[0] === 'R' || field[0] === 'C') paths.push(fields[++i] ?? '');
  }
  return paths.filter((path) => path !== '');
}

/**
 * The commits of `branch` whose changes `base` does not hold yet. A squash-merged branch counts as
 * merged: merging it again (git merge-tree) would leave the base's tree as it is.
 */
export async function unmergedCommits(repo: RepositoryFacts, base: string, branch: string, listener?: CommandListener): Promise<string[]> {
  const log = await gitReadOk(['log', '--format=%h %s', `refs/heads/${base}..refs/heads/${branch}`], repo.top, listener);
  const commits = log.split('\n').filter(Boolean);
  if (commits.length === 0) return [];
  const merged = await gitRead(['merge-tree', '--write-tree', '--no-messages', `refs/heads/${base}`, `refs/heads/${branch}`], repo.top, listener);
  const baseTree = (await gitReadOk(['rev-parse', `refs/heads/${base}^{tree}`], repo.top, listener)).trim();
  if (merged.code === 0 && merged.stdout.split('\n')[0]?.trim() === baseTree) return [];
  return commits;
}
