// What a workspace is, seen by git, before a worktree is made of it: a repository's working tree
// with a branch and a commit (else a clear refusal: no repository, a bare one, the inside of a git
// folder, a submodule's checkout, no commit yet, a detached HEAD), and what a new worktree of it
// would leave out (submodules' contents, nested repositories).
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type CommandListener, gitRead, gitReadOk } from './git-command.js';
import { BRANCH_PREFIX } from './worktree-names.js';
import { WorktreeError } from './worktree-types.js';

/** A workspace that is a repository's working tree. */
export interface RepositoryFacts {
  /** The workspace folder, links resolved. */
  readonly workspace: string;
  /** The working tree's top folder (the workspace or a folder above it). */
  readonly top: string;
  /** The workspace's path inside the working tree ('' when it is the top). */
  readonly workspaceInTop: string;
  /** The repository's common git folder (shared by all its worktrees). */
  readonly commonDir: string;
  /** This working tree's own git folder. */
  readonly gitDir: string;
  /** The branch checked out, when HEAD is on one. */
  readonly branch?: string;
}

/** Submodules and nested repositories a new worktree does not bring along. */
interface LeftOut {
  /** Submodule paths (from .gitmodules): empty folders in a new worktree until `git submodule update --init` runs there. */
  readonly submodules: readonly string[];
  /** Folders with a repository of their own that this one does not track: absent from a new worktree. */
  readonly nestedRepositories: readonly string[];
}

/** Reads the facts of the repository the workspace belongs to, or refuses with why a worktree cannot be made. */
export async function readRepository(workspace: string, listener?: CommandListener): Promise<RepositoryFacts> {
  let real: string;
  try {
    real = realpathSync(workspace);
  } catch {
    throw new WorktreeError('not-a-repository', `The workspace folder ${workspace} does not exist.`);
  }
  const where = await gitRead(['rev-parse', '--is-inside-git-dir', '--is-bare-repository'], real, listener);
  if (where.code !== 0) {
    throw new WorktreeError(
      'not-a-repository',
      `The workspace ${real} is not in a git repository: a task gets its own worktree only in one (run \`git init\` and make a first commit, or run the task without a worktree).`,
    );
  }
  const [insideGitDir, bare] = where.stdout.trim().split('\n');
  if (bare === 'true')
    throw new WorktreeError('bare-repository', `The workspace ${real} is a bare repository: it has no working tree to make worktrees beside.`);
  if (insideGitDir === 'true') throw new WorktreeError('inside-git-folder', `The workspace ${real} is inside a git folder, not a working tree.`);
  const paths = (await gitReadOk(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir', '--absolute-git-dir'], real, listener))
    .trim()
    .split('\n');
  const [top, commonDir, gitDir] = paths.map((path) => realpathSync(path));
  const superproject = (await gitRead(['rev-parse', '--show-superproject-working-tree'], real, listener)).stdout.trim();
  if (superproject) {
    throw new WorktreeError(
      'submodule',
      `The workspace ${top} is a submodule of ${superproject}: Smith does not make worktrees of a submodule (git's support for them is incomplete). Open the superproject, or a clone of the submodule on its own.`,
    );
  }
  const branch = (await gitRead(['symbolic-ref', '-q', '--short', 'HEAD'], real, listener)).stdout.trim();
  return {
    workspace: real,
    top: top!,
    workspaceInTop: relative(top!, real),
    commonDir: commonDir!,
    gitDir: gitDir!,
    ...(branch ? { branch } : {}),
  };
}

/** The commit a local branch points to; refuses a missing branch or a repository without commits. */
export async function branchCommit(repo: RepositoryFacts, branch: string | undefined, listener?: CommandListener): Promise<{ branch: string; commit: string }> {
  const head = await gitRead(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], repo.top, listener);
  if (head.code !== 0)
    throw new WorktreeError('no-commit', `The repository ${repo.top} has no commit yet: make a first commit, then a task can start from it.`);
  if (branch === undefined) {
    throw new WorktreeError(
      'detached-head',
      `The workspace ${repo.top} is on a detached HEAD: check out the branch the task's work should be merged into, or name one as the base.`,
    );
  }
  const resolved = branch.startsWith('-') ? undefined : await gitRead(['rev-parse', '-q', '--verify', `refs/heads/${branch}^{commit}`], repo.top, listener);
  if (resolved?.code !== 0) {
    const known = await localBranches(repo.top, listener);
    const shown = known.length > 20 ? `${known.slice(0, 20).join(', ')}, …` : known.join(', ');
    throw new WorktreeError(
      'bad-base',
      `There is no local branch "${branch}" to start from (the local branches: ${shown || 'none'}). A task's worktree starts from a local branch and is merged back into it: for a remote branch or a tag, make a local branch of it first (\`git branch NAME origin/NAME\`).`,
    );
  }
  return { branch, commit: resolved.stdout.trim() };
}

/** The repository's local branches, by name, without the task branches (`smith/…`): the bases a task can start from. */
export async function localBranches(cwd: string, listener?: CommandListener): Promise<string[]> {
  const text = await gitReadOk(['for-each-ref', '--format=%(refname:short)', 'refs/heads/'], cwd, listener);
  return text
    .split('\n')
    .filter((name) => name !== '' && !name.startsWith(BRANCH_PREFIX))
    .sort();
}

/** What a new worktree of `repo` leaves out: submodules' contents and nested repositories. */
export async function leftOut(repo: RepositoryFacts, listener?: CommandListener): Promise<LeftOut> {
  const submodules = existsSync(join(repo.top, '.gitmodules'))
    ? (await gitRead(['config', '--file', '.gitmodules', '--get-regexp', '^submodule\\..*\\.path$'], repo.top, listener)).stdout
        .split('\n')
        .map((line) => line.slice(line.indexOf(' ') + 1).trim())
        .filter((path) => path !== '')
    : [];
  // Untracked folders, ignored ones too, each folder listed once: those with a `.git` are repositories of their own.
  const untracked = await gitRead(['ls-files', '--others', '--directory', '--no-empty-directory', '-z'], repo.top, listener);
  const nestedRepositories = untracked.stdout
    .split('\0')
    .filter((path) => path.endsWith('/') && hasGitEntry(join(repo.top, path)))
    .map((path) => path.slice(0, -1));
  return { submodules, nestedRepositories };
}

function hasGitEntry(folder: string): boolean {
  try {
    lstatSync(join(folder, '.git'));
    return true;
  } catch {
    return false;
  }
}

/** Sentences telling the user what a new worktree leaves out; empty when nothing. */
export function leftOutNotes(left: LeftOut): string[] {
  const notes: string[] = [];
  if (left.submodules.length > 0) {
    notes.push(
      `Submodules are empty folders in the new worktree (git worktree add does not check them out): ${left.submodules.join(', ')}. Run \`git submodule update --init\` in the worktree if the task needs them.`,
    );
  }
  if (left.nestedRepositories.length > 0) {
    notes.push(`Nested repositories this repository does not track are not in the new worktree: ${left.nestedRepositories.join(', ')}.`);
  }
  return notes;
}
