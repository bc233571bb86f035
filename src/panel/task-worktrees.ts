import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { gitRead } from '../core/worktrees/git-command.js';
import {
  createWorktree,
  diffWorktree,
  discardWorktree,
  mergeWorktree,
  openPullRequest,
  WorktreeError,
  type CreatedWorktree,
  type GitCommand,
  type TaskWorktree,
  type WorktreeSettings,
} from '../core/worktrees/worktree-tasks.js';
import type { WorktreeAction, WorktreeView } from '../shared/protocol.js';
import type { CheckpointViews, ComparedFile } from './panel-ports.js';

/** Git commands kept per worktree for the panel to show (the newest). */
const SHOWN_COMMANDS = 8;

/** A held task's worktree as the panel tracks it: what the user did with it, and the git commands run for it. */
export interface HeldWorktree {
  readonly worktree: TaskWorktree;
  outcome?: NonNullable<WorktreeView['outcome']>;
  /** The pull request's address, once opened. */
  url?: string;
  /** The git commands, each added as it is reported (before it runs), newest last. */
  readonly commands: string[];
}

/** What the user chose for a new task's worktree: its name (absent: from the task's text) and its base branch (absent: the one checked out). */
export interface WorktreeChoice {
  readonly name?: string;
  readonly base?: string;
}

/** What the worktree actions work with; the TaskController provides it. */
interface TaskWorktreesDeps {
  readonly settings: () => WorktreeSettings;
  readonly views: Pick<CheckpointViews, 'confirm' | 'showChanges'>;
  readonly notify: (level: 'info' | 'warning', message: string) => void;
  /** A worktree's commands or outcome changed: the task list is sent again. */
  readonly changed: () => void;
}

/**
 * Tasks in a git worktree of their own (docs/parallel-tasks.md), from the panel: the worktree made
 * for a new task, and what the user does with it when the task is done — review its changes in
 * the editor's multi-file diff, merge it, open a pull request, keep the branch, or discard it.
 * Every git command is listed with the task (and logged) as the core reports it, before it runs.
 */
export class TaskWorktrees {
  constructor(private readonly deps: TaskWorktreesDeps) {}

  /** Makes the worktree and branch for a task about `text`, started in `workspace`, as the user chose. */
  async create(workspace: string, text: string, choice: WorktreeChoice = {}): Promise<{ readonly created: CreatedWorktree; readonly held: HeldWorktree }> {
    const commands: string[] = [];
    const request = { task: text, ...(choice.name !== undefined ? { name: choice.name } : {}), ...(choice.base !== undefined ? { base: choice.base } : {}) };
    const created = await createWorktree(workspace, request, this.deps.settings(), (command) => this.report(commands, command));
    for (const note of created.notes) this.deps.notify('info', note);
    for (const skipped of created.copies.skipped) this.deps.notify('warning', `Not copied into the worktree: ${skipped}`);
    return { created, held: { worktree: created.worktree, commands } };
  }

  /**
   * What the user chose for a finished task's worktree; `title` names the task (the commit message
   * of its pending changes). Resolves to what became of the worktree.
   */
  async act(held: HeldWorktree, action: WorktreeAction, title: string): Promise<HeldWorktree['outcome']> {
    const { worktree } = held;
    const listener = (command: GitCommand) => this.report(held.commands, command);
    // Any folder of the repository's working tree will do: the one the base is checked out in.
    const workspace = worktree.repository;
    const copyFiles = this.deps.settings().copyFiles ?? [];
    switch (action) {
      case 'review':
        await this.review(held, listener);
        return held.outcome;
      case 'merge': {
        const result = await mergeWorktree(workspace, worktree.name, { commitPending: title, copyFiles }, listener);
        held.outcome = 'merged';
        this.deps.notify(
          'info',
          result.kind === 'up-to-date'
            ? `${worktree.base} already holds ${worktree.branch}.`
            : `Merged ${worktree.branch} into ${worktree.base} (${result.kind}).`,
        );
        break;
      }
      case 'pullRequest': {
        const result = await openPullRequest(workspace, worktree.name, { commitPending: title, title, copyFiles }, listener);
        held.outcome = 'pull-request';
        if (result.url) held.url = result.url;
        this.deps.notify(
          'info',
          result.via === 'gh'
            ? `Pull request opened: ${result.url}`
            : result.url
              ? `Pushed ${result.branch} to ${result.remote}; open the pull request here: ${result.url}`
              : `Pushed ${result.branch} to ${result.remote}; open the pull request into ${result.base} on it.`,
        );
        break;
      }
      case 'keep':
        held.outcome = 'kept';
        this.deps.notify('info', `Kept ${worktree.branch} and its worktree at ${worktree.path}.`);
        break;
      case 'discard': {
        if (!(await this.discard(held, listener))) return held.outcome;
        held.outcome = 'discarded';
        break;
      }
    }
    this.deps.changed();
    return held.outcome;
  }

  /** Removes the worktree and its branch, asking first when that loses uncommitted changes or unmerged commits; false when the user kept them. */
  private async discard(held: HeldWorktree, listener: (command: GitCommand) => void): Promise<boolean> {
    const { worktree } = held;
    const copyFiles = this.deps.settings().copyFiles ?? [];
    try {
      await discardWorktree(worktree.repository, worktree.name, { copyFiles }, listener);
      return true;
    } catch (error) {
      if (!(error instanceof WorktreeError) || (error.code !== 'uncommitted-changes' && error.code !== 'unmerged-commits')) throw error;
      const files =
        error.files.length > 0 ? `\n${error.files.slice(0, 20).join('\n')}${error.files.length > 20 ? `\n…and ${error.files.length - 20} more` : ''}` : '';
      if (!(await this.deps.views.confirm(`Discard ${worktree.branch}?`, `${error.message}${files}`, 'Discard'))) return false;
      await discardWorktree(worktree.repository, worktree.name, { force: true, copyFiles }, listener);
      return true;
    }
  }

  /** Opens the editor's multi-file diff: every file the task changed (committed or not), its base version on the left. */
  private async review(held: HeldWorktree, listener: (command: GitCommand) => void): Promise<void> {
    const { worktree } = held;
    const diff = await diffWorktree(worktree.repository, worktree.name, listener);
    const paths = new Set([...diff.committed.files, ...diff.uncommitted.files].map((file) => file.path));
    for (const path of diff.untracked) paths.add(path);
    if (paths.size === 0) {
      this.deps.notify('info', `${worktree.branch} changes nothing against ${worktree.base}.`);
      return;
    }
    const files: ComparedFile[] = [];
    for (const path of [...paths].sort()) {
      // The base's version, read as a blob of the commit the task started from (absent: the task added the file).
      const blob = await gitRead(['cat-file', 'blob', `${worktree.baseCommit}:${path}`], diff.path, listener);
      const before = blob.code === 0 ? blob.stdout : undefined;
      const absolutePath = join(diff.path, path);
      files.push({ path, absolutePath, before: () => before, existsNow: existsSync(absolutePath) });
    }
    await this.deps.views.showChanges(`${worktree.branch} against ${worktree.base}`, files);
    this.deps.changed();
  }

  /** Lists the command with its worktree's task and in the log, before it runs. */
  private report(commands: string[], command: GitCommand): void {
    const line = `${command.argv.map(quoteArg).join(' ')}  (in ${command.cwd})`;
    commands.push(line);
    if (commands.length > SHOWN_COMMANDS) commands.splice(0, commands.length - SHOWN_COMMANDS);
    this.deps.notify('info', `Running ${line}`);
    this.deps.changed();
  }
}

/** An argument as a shell would need it, for reading only (git runs with an argv, never through a shell). */
function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
