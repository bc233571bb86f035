// The shapes the worktree tasks share with their callers (the CLI, the panel, the task log).

/** The worktree a task runs in, as the task's log records it (`task_started.worktree`). */
export interface TaskWorktree {
  /** The worktree's name (`smith/<name>` is its branch). */
  readonly name: string;
  /** The worktree's top folder. */
  readonly path: string;
  /** `smith/<name>`. */
  readonly branch: string;
  /** The branch it was made from and is merged back into. */
  readonly base: string;
  /** The base branch's commit it started from. */
  readonly baseCommit: string;
  /** The top folder of the repository it belongs to (where the base was checked out). */
  readonly repository: string;
}

/** The user's settings for worktree tasks (`smith.worktree.*`). */
export interface WorktreeSettings {
  /**
   * The folder under which worktrees are made, `<parent>/<repository name>/<name>`; default
   * `<the repository's parent folder>/.smith-worktrees`. Never inside the repository or its git folder.
   */
  readonly parent?: string;
  /** Untracked files copied into a new worktree, in .gitignore syntax (`.env`, `/.env.local`, `config/*.local.json`). */
  readonly copyFiles?: readonly string[];
}

/** Why a worktree operation refused, for a caller that acts on it (ask the user, then force). */
export type WorktreeErrorCode =
  | 'not-a-repository'
  | 'bare-repository'
  | 'inside-git-folder'
  | 'submodule'
  | 'no-commit'
  | 'detached-head'
  | 'bad-base'
  | 'bad-name'
  | 'bad-parent'
  | 'bad-copy-pattern'
  | 'not-found'
  | 'base-not-checked-out'
  | 'merge-in-progress'
  | 'dirty-base'
  | 'conflict'
  | 'nothing-to-merge'
  | 'commit-failed'
  | 'uncommitted-changes'
  | 'unmerged-commits'
  | 'no-remote'
  | 'git-failed';

/** A refusal or failure with a message for the user and, where it helps, the files concerned. */
export class WorktreeError extends Error {
  constructor(
    readonly code: WorktreeErrorCode,
    message: string,
    readonly files: readonly string[] = [],
  ) {
    super(message);
    this.name = 'WorktreeError';
  }
}
