// The worktrees git knows of (`git worktree list --porcelain -z`), and among them the tasks': those
// on a `smith/<name>` branch. The base a task's branch merges into is its upstream, set by
// `git worktree add --track`, so git itself remembers it, for every tool that reads the repository.
import { existsSync } from 'node:fs';
import { type CommandListener, gitReadOk } from './git-command.js';
import { BRANCH_PREFIX } from './worktree-names.js';

/** One entry of `git worktree list`. */
interface GitWorktreeEntry {
  readonly path: string;
  readonly head?: string;
  /** The branch's short name, absent on a detached HEAD. */
  readonly branch?: string;
  readonly bare: boolean;
  /** Its folder is gone (git would prune it). */
  readonly prunable: boolean;
  readonly locked: boolean;
}

/** A worktree task as listed. */
export interface WorktreeTaskEntry {
  readonly name: string;
  readonly branch: string;
  readonly path: string;
  /** The branch it merges into (its upstream); absent when that was removed. */
  readonly base?: string;
  readonly head?: string;
  /** False when its folder was deleted by hand (discard cleans up). */
  readonly exists: boolean;
}

/** Every worktree of the repository, the main one first. */
export async function gitWorktrees(cwd: string, listener?: CommandListener): Promise<GitWorktreeEntry[]> {
  const text = await gitReadOk(['worktree', 'list', '--porcelain', '-z'], cwd, listener);
  const entries: GitWorktreeEntry[] = [];
  let current: { path?: string; head?: string; branch?: string; bare: boolean; prunable: boolean; locked: boolean } | undefined;
  const flush = () => {
    if (current?.path) entries.push({ ...current, path: current.path } as GitWorktreeEntry);
    current = undefined;
  };
  for (const field of text.split('\0')) {
    if (field === '') {
      flush();
      continue;
    }
    current ??= { bare: false, prunable: false, locked: false };
    const space = field.indexOf(' ');
    const key = space === -1 ? field : field.slice(0, space);
    const value = space === -1 ? '' : field.slice(space + 1);
    if (key === 'worktree') current.path = value;
    else if (key === 'HEAD') current.head = value;
    else if (key === 'branch') current.branch = value.replace(/^refs\/heads\//, '');
    else if (key === 'bare') current.bare = true;
    else if (key === 'prunable') current.prunable = true;
    else if (key === 'locked') current.locked = true;
  }
  flush();
  return entries;
}

/** The worktree tasks of the repository (worktrees on a `smith/` branch), each with its base. */
export async function worktreeTasks(cwd: string, listener?: CommandListener): Promise<WorktreeTaskEntry[]> {
  const worktrees = await gitWorktrees(cwd, listener);
  const bases = await taskBranches(cwd, listener);
  const tasks: WorktreeTaskEntry[] = [];
  for (const entry of worktrees) {
    if (!entry.branch?.startsWith(BRANCH_PREFIX)) continue;
    const base = bases.get(entry.branch);
    tasks.push({
      name: entry.branch.slice(BRANCH_PREFIX.length),
      branch: entry.branch,
      path: entry.path,
      ...(base ? { base } : {}),
      ...(entry.head ? { head: entry.head } : {}),
      exists: !entry.prunable && existsSync(entry.path),
    });
  }
  return tasks;
}

/**
 * The `smith/` branches, each with the local branch it tracks ('' when none: an upstream on a
 * remote is not a base a task merges into).
 */
export async function taskBranches(cwd: string, listener?: CommandListener): Promise<Map<string, string>> {
  const text = await gitReadOk(['for-each-ref', '--format=%(refname)%00%(upstream)', `refs/heads/${BRANCH_PREFIX}`], cwd, listener);
  const branches = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [ref, upstream] = line.split('\0');
    if (!ref?.startsWith('refs/heads/')) continue;
    branches.set(ref.slice('refs/heads/'.length), upstream?.startsWith('refs/heads/') ? upstream.slice('refs/heads/'.length) : '');
  }
  return branches;
}
