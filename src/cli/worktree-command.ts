// `smith worktree list|diff|merge|pr|discard`: the worktree tasks of the repository the current
// folder (or --cwd) belongs to. Every git command that changes something is printed before it
// runs (all of them with --verbose). Exit codes: 0 done, 1 refused or failed, 2 usage error.
import { realpathSync } from 'node:fs';
import {
  type CommandListener,
  diffWorktree,
  discardWorktree,
  listWorktrees,
  mergeWorktree,
  openPullRequest,
  WorktreeError,
} from '../core/worktrees/worktree-tasks.js';
import { UsageError, parseFlags } from './usage-error.js';
import { defaultStorageDir } from './default-storage.js';
import type { Style } from './style.js';
import { loadWorktreeSettings } from './worktree-settings-file.js';

const WORKTREE_USAGE = `smith worktree list [--output json]
smith worktree diff NAME [--output json]
smith worktree merge NAME [--squash] [--message TEXT] [--no-commit]
smith worktree pr NAME [--title TEXT] [--body TEXT] [--draft] [--remote NAME] [--no-commit]
smith worktree discard NAME [--force]`;

const WORKTREE_HELP = `Usage: ${WORKTREE_USAGE.split('\n').join('\n       ')}

The worktree tasks (branches smith/NAME, each in its own worktree; smith --worktree [NAME] "task"
starts one) of the repository the current folder, or --cwd DIR, belongs to:
  list      each task's name, branch, base and folder
  diff      what the task changed since it left its base, and what it has not committed
  merge     merge the branch into its base where the base is checked out: a fast-forward or a
            merge commit, or one commit with --squash. What the task left uncommitted is committed
            first (--message TEXT, default "Work of the task NAME"), unless --no-commit. Refused,
            with nothing changed, on conflicts or when the base's folder has local changes in the
            files the merge touches
  pr        push the branch and open a pull request with gh (the GitHub CLI); without gh, print
            the GitHub page that opens it (for a GitHub-style remote URL)
  discard   remove the worktree and the branch; refused when that would lose uncommitted changes
            or unmerged commits, unless --force
  --verbose shows every git command, not only those that change something
  --storage DIR  Smith's storage (its settings.json "worktree": {"parent", "copyFiles"})
See docs/parallel-tasks.md.`;

interface WorktreeCommandIo {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
  readonly style: Style;
}

function parseWorktreeArgs(argv: readonly string[]) {
  return parseFlags(
    argv,
    {
      cwd: { type: 'string' },
      storage: { type: 'string' },
      output: { type: 'string', default: 'human' },
      squash: { type: 'boolean', default: false },
      message: { type: 'string' },
      'no-commit': { type: 'boolean', default: false },
      title: { type: 'string' },
      body: { type: 'string' },
      draft: { type: 'boolean', default: false },
      remote: { type: 'string' },
      force: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    { positionals: true, usage: `Usage: ${WORKTREE_USAGE}` },
  );
}

/** Runs `smith worktree …` (argv after `worktree`); the exit code. */
export async function runWorktreeCommand(argv: readonly string[], io: WorktreeCommandIo): Promise<number> {
  const { values, positionals } = parseWorktreeArgs(argv);
  if (values.help) {
    io.out.write(`${WORKTREE_HELP}\n`);
    return 0;
  }
  const [action, name, ...extra] = positionals;
  const needsName = action === 'diff' || action === 'merge' || action === 'pr' || action === 'discard';
  if (action !== 'list' && !needsName)
    throw new UsageError(`smith worktree needs list, diff, merge, pr or discard${action ? `; got "${action}"` : ''}\nUsage: ${WORKTREE_USAGE}`);
  if (needsName && !name) throw new UsageError(`smith worktree ${action} needs the task's NAME (see smith worktree list)`);
  if (extra.length > 0 || (action === 'list' && name))
    throw new UsageError(`smith worktree ${action}: unexpected "${(action === 'list' ? [name, ...extra] : extra).join(' ')}"`);
  if (values.output !== 'human' && values.output !== 'json') throw new UsageError(`--output must be human or json; got "${values.output}"`);
  let workspace: string;
  try {
    workspace = realpathSync(values.cwd ?? process.cwd());
  } catch {
    throw new UsageError(`--cwd folder does not exist: ${values.cwd}`);
  }
  const { settings, problems } = loadWorktreeSettings(values.storage ?? defaultStorageDir());
  for (const problem of problems) io.err.write(`${io.style.yellow(`Warning: ${io.style.text(problem)}`)}\n`);
  const listener: CommandListener = (command) => {
    if (command.changes || values.verbose) io.err.write(`${io.style.dim(`$ ${io.style.text(command.argv.join(' '))}`)}\n`);
  };
  const json = values.output === 'json';
  const print = (value: unknown, human: string) => io.out.write(json ? `${JSON.stringify(value)}\n` : human);
  const commitMessage = values['no-commit'] ? undefined : (values.message ?? `Work of the task ${name}`);
  try {
    switch (action) {
      case 'list': {
        const tasks = await listWorktrees(workspace, listener);
        print(
          tasks,
          tasks.length === 0
            ? 'No worktree tasks in this repository.\n'
            : tasks
                .map((t) => `${t.name}\t${t.branch}\t${t.base ? `base ${t.base}` : 'no base'}\t${t.path}${t.exists ? '' : '\t(folder missing)'}\n`)
                .map((line) => io.style.text(line))
                .join(''),
        );
        return 0;
      }
      case 'diff': {
        const diff = await diffWorktree(workspace, name!, listener);
        const untracked = diff.untracked.map((path) => `new, not yet added: ${path}\n`).join('');
        print(
          diff,
          [
            `${io.style.bold(`${diff.branch} against ${diff.base} (committed)`)}\n${diff.committed.text ? io.style.diff(diff.committed.text) : '(nothing)\n'}`,
            `${io.style.bold('Not committed in the worktree')}\n${diff.uncommitted.text ? io.style.diff(diff.uncommitted.text) : ''}${io.style.text(untracked)}${diff.uncommitted.text || untracked ? '' : '(nothing)\n'}`,
          ].join('\n'),
        );
        return 0;
      }
      case 'merge': {
        const merged = await mergeWorktree(
          workspace,
          name!,
          {
            squash: values.squash!,
            ...(values.message !== undefined ? { message: values.message } : {}),
            ...(commitMessage !== undefined ? { commitPending: commitMessage } : {}),
            ...(settings.copyFiles ? { copyFiles: settings.copyFiles } : {}),
          },
          listener,
        );
        const what = { 'fast-forward': 'Fast-forwarded', 'merge-commit': 'Merged (merge commit)', squash: 'Squash-merged', 'up-to-date': 'Already merged:' }[
          merged.kind
        ];
        print(
          merged,
          `${what} ${merged.branch} into ${merged.base} in ${io.style.text(merged.mergedIn)} (now ${merged.commit.slice(0, 12)}).\nThe worktree and branch stay; remove them with: smith worktree discard ${name}\n`,
        );
        return 0;
      }
      case 'pr': {
        const opened = await openPullRequest(
          workspace,
          name!,
          {
            ...(values.title !== undefined ? { title: values.title } : {}),
            ...(values.body !== undefined ? { body: values.body } : {}),
            draft: values.draft!,
            ...(values.remote !== undefined ? { remote: values.remote } : {}),
            ...(commitMessage !== undefined ? { commitPending: commitMessage } : {}),
            ...(settings.copyFiles ? { copyFiles: settings.copyFiles } : {}),
          },
          listener,
        );
        print(
          opened,
          opened.via === 'gh'
            ? `${io.style.text(opened.url ?? '')}\n`
            : opened.url
              ? `Pushed ${opened.branch} to ${opened.remote}. gh (the GitHub CLI) is not on PATH: open the pull request into ${opened.base} here:\n${io.style.text(opened.url)}\n`
              : `Pushed ${opened.branch} to ${opened.remote}. gh (the GitHub CLI) is not on PATH and ${opened.remote} is not on a GitHub-style host: open the pull request into ${opened.base} on it yourself.\n`,
        );
        return 0;
      }
      default: {
        const discarded = await discardWorktree(
          workspace,
          name!,
          { force: values.force!, ...(settings.copyFiles ? { copyFiles: settings.copyFiles } : {}) },
          listener,
        );
        print(discarded, `Discarded ${discarded.branch} and its worktree ${io.style.text(discarded.path)}.\n`);
        return 0;
      }
    }
  } catch (error) {
    if (!(error instanceof WorktreeError)) throw error;
    const hint =
      error.code === 'uncommitted-changes' || error.code === 'unmerged-commits'
        ? action === 'discard'
          ? ' (smith worktree discard NAME --force drops them)'
          : ''
        : '';
    if (json) io.out.write(`${JSON.stringify({ error: error.message, code: error.code, files: error.files })}\n`);
    io.err.write(`${io.style.red(io.style.text(`${error.message}${hint}`))}\n`);
    return 1;
  }
}
