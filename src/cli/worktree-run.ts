// `smith --worktree [NAME] "task"`: the task's worktree is made before the session opens, so the
// worktree is the task's workspace for everything (files, commands, sandbox, checkpoints, rules);
// its branch and folder are printed when the run ends. A resumed worktree task goes back to its worktree.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { summarizeTaskLog, taskEventsFile } from '../core/log/task-log.js';
import { createWorktree } from '../core/worktrees/worktree-tasks.js';
import type { TaskWorktree } from '../core/worktrees/worktree-types.js';
import { UsageError } from './usage-error.js';
import type { Style } from './style.js';
import { loadWorktreeSettings } from './worktree-settings-file.js';

/** Where a run works when it has a worktree of its own. */
interface WorktreePlace {
  readonly cwd: string;
  readonly worktree: TaskWorktree;
}

/** Makes the task's worktree from the workspace `cwd`, telling on `err` what ran, what was copied and left out. */
export async function startInWorktree(
  request: { readonly name?: string; readonly base?: string },
  cwd: string,
  taskText: string | undefined,
  storageDir: string,
  err: NodeJS.WritableStream,
  style: Style,
): Promise<WorktreePlace> {
  const { settings, problems } = loadWorktreeSettings(storageDir);
  for (const problem of problems) err.write(`${style.yellow(`Warning: ${style.text(problem)}`)}\n`);
  const made = await createWorktree(
    cwd,
    {
      ...(request.name !== undefined ? { name: request.name } : {}),
      ...(request.base !== undefined ? { base: request.base } : {}),
      ...(taskText ? { task: taskText } : {}),
    },
    settings,
    (command) => {
      if (command.changes) err.write(`${style.dim(`$ ${style.text(command.argv.join(' '))}`)}\n`);
    },
  );
  err.write(`${style.dim(style.text(`Working in the worktree ${made.workspace} (branch ${made.worktree.branch}, from ${made.worktree.base})`))}\n`);
  if (made.copies.copied.length > 0) err.write(`${style.dim(style.text(`Copied into it: ${made.copies.copied.join(', ')}`))}\n`);
  for (const skipped of made.copies.skipped) err.write(`${style.yellow(style.text(`Not copied: ${skipped.path}: ${skipped.reason}`))}\n`);
  for (const note of made.notes) err.write(`${style.yellow(`Note: ${style.text(note)}`)}\n`);
  return { cwd: made.workspace, worktree: made.worktree };
}

/**
 * The place of a stored task that ran in a worktree: its own folder there, whatever the current
 * folder is, since its files and checkpoints are there. Undefined for a task without a worktree.
 */
export function resumedWorktreePlace(storageDir: string, taskId: string): WorktreePlace | undefined {
  const file = taskEventsFile(storageDir, taskId);
  if (!existsSync(file)) return undefined;
  const summary = summarizeTaskLog(taskId, readFileSync(file), file, () => statSync(file).mtimeMs);
  if (!summary?.worktree) return undefined;
  if (!existsSync(summary.cwd)) {
    throw new UsageError(
      `task ${taskId} ran in the worktree ${summary.worktree.path} (branch ${summary.worktree.branch}), which no longer exists: it was discarded or moved`,
    );
  }
  return { cwd: summary.cwd, worktree: summary.worktree };
}

/** The lines that end a worktree run: where the work is and what to do with it. */
export function printWorktreeEnd(place: WorktreePlace, err: NodeJS.WritableStream, style: Style): void {
  const { worktree } = place;
  err.write(
    `\n${style.bold('Worktree')} ${style.text(worktree.path)}\n${style.bold('Branch')}   ${style.text(worktree.branch)} (from ${style.text(worktree.base)})\n` +
      style.dim(`Next: smith worktree diff ${worktree.name} | merge ${worktree.name} | pr ${worktree.name} | discard ${worktree.name}`) +
      '\n',
  );
}
