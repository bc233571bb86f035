// What a task changed against its base: the branch's commits since it left the base
// (`git diff base...branch`), and what its worktree has not committed (`git diff HEAD` and the
// untracked files). External diff programs and textconv filters the repository names are not run.
import { type CommandListener, gitReadOk } from './git-command.js';
import { baseOf, findWorktree } from './find-worktree.js';

/** One changed file: git's status letter (A, M, D, T …) and its path. */
export interface ChangedFile {
  readonly status: string;
  readonly path: string;
}

/** A patch and the files it changes. */
export interface Patch {
  readonly text: string;
  readonly files: readonly ChangedFile[];
}

/** A task's changes against its base. */
export interface WorktreeDiff {
  readonly name: string;
  readonly branch: string;
  readonly base: string;
  readonly path: string;
  /** The branch's commits since it left the base. */
  readonly committed: Patch;
  /** Tracked files changed in the worktree and not committed (staged or not). */
  readonly uncommitted: Patch;
  /** New files in the worktree git does not track yet (ignored ones left out). */
  readonly untracked: readonly string[];
}

const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--no-renames'];

/** The diff of the task `name` of the workspace's repository. */
export async function diffWorktree(workspace: string, name: string, listener?: CommandListener): Promise<WorktreeDiff> {
  const { repo, task } = await findWorktree(workspace, name, listener);
  const base = baseOf(task);
  const range = `refs/heads/${base}...refs/heads/${task.branch}`;
  const committed = await patch([range], repo.top, listener);
  const uncommitted = task.exists ? await patch(['HEAD'], task.path, listener) : { text: '', files: [] };
  const untracked = task.exists ? (await gitReadOk(['ls-files', '--others', '--exclude-standard', '-z'], task.path, listener)).split('\0').filter(Boolean) : [];
  return { name: task.name, branch: task.branch, base, path: task.path, committed, uncommitted, untracked };
}

async function patch(revisions: readonly string[], cwd: string, listener?: CommandListener): Promise<Patch> {
  const text = await gitReadOk(['diff', ...DIFF_FLAGS, ...revisions, '--'], cwd, listener);
  const names = (await gitReadOk(['diff', ...DIFF_FLAGS, '--name-status', '-z', ...revisions, '--'], cwd, listener)).split('\0');
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < names.length; i += 2) if (names[i]) files.push({ status: names[i]!, path: names[i + 1]! });
  return { text, files };
}
