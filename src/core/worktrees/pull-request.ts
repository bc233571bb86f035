// Opening a pull request for a task: its pending changes committed, its branch pushed to the
// remote, then `gh pr create` (the GitHub CLI, which holds the user's sign-in) from the worktree;
// without gh, the address of GitHub's page that opens one (compare-url.ts).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { commitPending } from './commit-pending.js';
import { compareUrl } from './compare-url.js';
import { type CommandListener, git, gitRead, gitReadOk, runProgram } from './git-command.js';
import { baseOf, findWorktree } from './find-worktree.js';
import { WorktreeError } from './worktree-types.js';

/** What the pull request says; the title and body default to the branch's commits (`gh pr create --fill`). */
export interface PullRequestRequest {
  readonly title?: string;
  readonly body?: string;
  readonly draft?: boolean;
  /** The remote to push to (default `origin`, else the only one). */
  readonly remote?: string;
  readonly commitPending?: string;
  readonly copyFiles?: readonly string[];
}

/** The pull request opened. */
export interface PullRequestResult {
  readonly branch: string;
  readonly base: string;
  readonly remote: string;
  /**
   * `gh`: the pull request was opened and `url` is its address, as gh printed it. `compare`: gh is
   * not on PATH; the branch was pushed and `url` is the page that opens the pull request (absent
   * when the remote is not on a GitHub-style host).
   */
  readonly via: 'gh' | 'compare';
  readonly url?: string;
  readonly committedPending: boolean;
}

/** The first `name` found on PATH that can be run, if any. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** Pushes the task's branch and opens a pull request into its base with gh. */
export async function openPullRequest(
  workspace: string,
  name: string,
  request: PullRequestRequest = {},
  listener?: CommandListener,
): Promise<PullRequestResult> {
  const { repo, task } = await findWorktree(workspace, name, listener);
  const base = baseOf(task);
  const remotes = (await gitReadOk(['remote'], repo.top, listener)).split('\n').filter(Boolean);
  const remote = request.remote ?? (remotes.includes('origin') ? 'origin' : remotes.length === 1 ? remotes[0] : undefined);
  if (!remote || !remotes.includes(remote)) {
    throw new WorktreeError(
      'no-remote',
      remotes.length === 0
        ? `The repository has no remote to push ${task.branch} to: add one (\`git remote add origin URL\`), then open the pull request again.`
        : `The repository has no remote "${request.remote ?? 'origin'}" to push ${task.branch} to (its remotes: ${remotes.join(', ')}): name one of them.`,
    );
  }
  const committedPending = request.commitPending !== undefined ? await commitPending(task, request.commitPending, request.copyFiles ?? [], listener) : false;
  const cwd = task.exists ? task.path : repo.top;
  // No --set-upstream: the branch keeps tracking its base, which is how its base is known.
  const pushed = await git(['push', remote, `refs/heads/${task.branch}:refs/heads/${task.branch}`], cwd, listener);
  if (pushed.code !== 0) throw new WorktreeError('git-failed', `Pushing ${task.branch} to ${remote} failed: ${(pushed.stderr || pushed.stdout).trim()}`);
  if (!onPath('gh')) {
    const remoteUrl = await gitRead(['remote', 'get-url', remote], repo.top, listener);
    const url = remoteUrl.code === 0 ? compareUrl(remoteUrl.stdout, base, task.branch) : undefined;
    return { branch: task.branch, base, remote, via: 'compare', ...(url ? { url } : {}), committedPending };
  }
  const args = ['gh', 'pr', 'create', '--base', base, '--head', task.branch];
  if (request.title !== undefined) args.push('--title', request.title, '--body', request.body ?? '');
  else args.push('--fill');
  if (request.draft) args.push('--draft');
  const created = await runProgram(args, cwd, listener, true);
  if (created.code !== 0) throw new WorktreeError('git-failed', `gh pr create failed: ${(created.stderr || created.stdout).trim()}`);
  return { branch: task.branch, base, remote, via: 'gh', url: created.stdout.trim().split('\n').at(-1) ?? '', committedPending };
}
