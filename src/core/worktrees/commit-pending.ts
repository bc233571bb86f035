// Committing what a task left uncommitted in its worktree, before a merge or a pull request:
// every changed, deleted and new (not ignored) file, except those the user's copy patterns name,
// which came from the workspace (`.env`) and must never land in a commit.
import { copyPatternMatcher } from './copy-files.js';
import { type CommandListener, git, gitReadOk } from './git-command.js';
import type { WorktreeTaskEntry } from './worktree-list.js';
import { WorktreeError } from './worktree-types.js';

/** Paths handed to one `git add` (the command line stays far below the system's limit). */
const PATHS_PER_ADD = 500;

/**
 * Commits the task's pending changes with `message`; false when there were none. Hooks of the
 * repository run as for any commit: a pre-commit hook that refuses stops here ('commit-failed'),
 * the changes staged and nothing lost.
 */
export async function commitPending(task: WorktreeTaskEntry, message: string, copyPatterns: readonly string[], listener?: CommandListener): Promise<boolean> {
  if (!task.exists) return false;
  const matcher = copyPatternMatcher(copyPatterns);
  const listed = await gitReadOk(['ls-files', '--modified', '--deleted', '--others', '--exclude-standard', '-z'], task.path, listener);
  const paths = [...new Set(listed.split('\0').filter((path) => path !== '' && !matcher.ignores(path)))];
  const staged = await gitReadOk(['diff', '--cached', '--name-only', '-z'], task.path, listener);
  if (paths.length === 0 && staged === '') return false;
  for (let i = 0; i < paths.length; i += PATHS_PER_ADD) {
    const added = await git(['--literal-pathspecs', 'add', '--all', '--', ...paths.slice(i, i + PATHS_PER_ADD)], task.path, listener);
    if (added.code !== 0) throw new WorktreeError('commit-failed', `git add failed in ${task.path}: ${(added.stderr || added.stdout).trim()}`);
  }
  const committed = await git(['commit', '--quiet', '-m', message], task.path, listener);
  if (committed.code !== 0) {
    throw new WorktreeError(
      'commit-failed',
      `Committing the task's changes in ${task.path} failed (the changes are staged there, nothing is lost): ${(committed.stderr || committed.stdout).trim()}`,
    );
  }
  return true;
}
