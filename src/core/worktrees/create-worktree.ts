// Making a task's worktree: the checks of repository.ts and worktree-place.ts, a unique name, then
// one `git worktree add --track -b smith/<name> -- <path> <base>` (the upstream records the base),
// then the opt-in copies.
import { lstatSync, mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { type CopyReport, copyOptInFiles, copyPatternMatcher } from './copy-files.js';
import { type CommandListener, git, gitRead } from './git-command.js';
import { branchCommit, leftOut, leftOutNotes, readRepository } from './repository.js';
import { gitWorktrees, taskBranches } from './worktree-list.js';
import { BRANCH_PREFIX, nameFromTask, sanitizeWorktreeName, uniqueName } from './worktree-names.js';
import { checkOutside, realPathOf, worktreesFolder } from './worktree-place.js';
import { type TaskWorktree, WorktreeError, type WorktreeSettings } from './worktree-types.js';

/** What to make: a name (else one from the task's text) and a base branch (else the workspace's). */
export interface CreateWorktreeRequest {
  readonly name?: string;
  readonly task?: string;
  readonly base?: string;
}

/** A worktree made for a task. */
export interface CreatedWorktree {
  readonly worktree: TaskWorktree;
  /** The folder the task works in: the worktree, or the workspace's place in it when the workspace is a subfolder of the repository. */
  readonly workspace: string;
  readonly copies: CopyReport;
  /** What the user should know: a changed name, left-out submodules, a subfolder workspace. */
  readonly notes: readonly string[];
}

/** Makes a worktree and its branch for a task started in `workspace`. */
export async function createWorktree(
  workspace: string,
  request: CreateWorktreeRequest,
  settings: WorktreeSettings = {},
  listener?: CommandListener,
): Promise<CreatedWorktree> {
  const repo = await readRepository(workspace, listener);
  const base = await branchCommit(repo, request.base ?? repo.branch, listener);
  const patterns = settings.copyFiles ?? [];
  copyPatternMatcher(patterns);
  const others = (await gitWorktrees(repo.top, listener)).map((entry) => realPathOf(entry.path));
  const folder = worktreesFolder(repo, settings.parent, others);
  const wanted = request.name === undefined ? nameFromTask(request.task ?? '') || 'task' : sanitizeWorktreeName(request.name);
  if (wanted === '') throw new WorktreeError('bad-name', `"${request.name}" has nothing a worktree name can keep (letters, digits, ".", "_", "-").`);
  let made: string | undefined;
  try {
    made = mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw new WorktreeError(
      'bad-parent',
      `Cannot make the worktree folder ${folder}: ${(error as Error).message}. Set smith.worktree.parent to a folder you can write.`,
    );
  }
  let name = '';
  let path = '';
  let branch = '';
  // Another Smith may take the same name between the check and `git worktree add` (two tasks
  // started at once): its add fails, the name is taken now, and the next free one is tried.
  for (let attempt = 1; ; attempt++) {
    const branches = await taskBranches(repo.top, listener);
    name = uniqueName(wanted, (candidate) => {
      const candidateBranch = `${BRANCH_PREFIX}${candidate}`;
      return branches.has(candidateBranch) || [...branches.keys()].some((b) => b.startsWith(`${candidateBranch}/`)) || exists(join(folder, candidate));
    });
    branch = `${BRANCH_PREFIX}${name}`;
    if ((await gitRead(['check-ref-format', '--branch', branch], repo.top, listener)).code !== 0) {
      throw new WorktreeError('bad-name', `"${branch}" is not a valid branch name.`);
    }
    path = join(folder, name);
    checkOutside(path, repo, others, `The worktree ${path}`);
    const added = await git(['worktree', 'add', '--track', '-b', branch, '--', path, base.branch], repo.top, listener);
    if (added.code === 0) break;
    const takenMeanwhile = exists(path) || (await taskBranches(repo.top, listener)).has(branch);
    if (!takenMeanwhile || attempt === 5) {
      // Only the folders made here and still empty are removed: nothing else was touched.
      if (made) removeEmptyUpTo(folder, made);
      throw new WorktreeError('git-failed', `git worktree add failed: ${(added.stderr || added.stdout).trim()}`);
    }
  }
  const taskFolder = join(path, repo.workspaceInTop);
  const copies = copyOptInFiles(repo.workspace, taskFolder, patterns);
  const notes = [
    ...(request.name !== undefined && name !== request.name ? [`The worktree is named "${name}" (asked: "${request.name}").`] : []),
    ...(repo.workspaceInTop
      ? [
          `The workspace is the folder ${repo.workspaceInTop} of the repository ${repo.top}: the worktree holds the whole repository, and the task works in ${taskFolder}.`,
        ]
      : []),
    ...(await leftOut(repo, listener).then(leftOutNotes, (error: Error) => [`Could not check for submodules and nested repositories: ${error.message}`])),
  ];
  return {
    worktree: { name, path, branch, base: base.branch, baseCommit: base.commit, repository: repo.top },
    workspace: taskFolder,
    copies,
    notes,
  };
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Removes `folder` and its empty parents up to `top`, the first folder mkdir made. */
function removeEmptyUpTo(folder: string, top: string): void {
  let current = folder;
  for (;;) {
    try {
      rmdirSync(current);
    } catch {
      return;
    }
    if (current === top) return;
    current = join(current, '..');
  }
}
