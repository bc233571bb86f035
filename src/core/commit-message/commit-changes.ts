// The changes a commit message describes, read from git itself: the staged changes, or everything
// the working tree holds against HEAD (new files included), and the repository's recent subjects
// for its style. Only reads: the "all" diff goes through a scratch index with intent-to-add
// entries, so the repository's own index is never touched. External diff programs and textconv
// filters are not run. The patch is bounded (see bounded-patch.ts).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitEnvironment } from '../worktrees/git-command.js';
import { boundedPatch, type PatchLimits } from './bounded-patch.js';
import { loadSmithIgnore } from '../workspace/smith-ignore.js';

/** Which changes: the staged ones, or all of the working tree's (staged or not, new files included). */
export type CommitScope = 'staged' | 'all';

/** One changed file: git's status letter(s) and its path (`old -> new` for a rename or copy). */
export interface CommitFile {
  readonly status: string;
  readonly path: string;
  /** The paths git named, relative to the repository's top (two for a rename or copy). */
  readonly paths: readonly string[];
}

/** What the model is shown of a repository's changes. */
export interface CommitChanges {
  /** The repository's top folder. */
  readonly top: string;
  readonly scope: CommitScope;
  /** Every changed file, whatever the patch leaves out. */
  readonly files: readonly CommitFile[];
  /** git's `--shortstat` line ("3 files changed, 10 insertions(+), 2 deletions(-)"). */
  readonly shortStat: string;
  /** The patch, each file's part cut to fit the limits. */
  readonly patch: string;
  /** True when some file's diff was cut or left out. */
  readonly cut: boolean;
  /** The files whose diff was withheld because .smithignore fences them off (they are still listed). */
  readonly withheld: readonly CommitFile[];
  /** The subjects of the last commits (newest first), for the repository's style. */
  readonly recentSubjects: readonly string[];
}

/** Why there is nothing to describe. */
export class CommitChangesError extends Error {
  constructor(
    readonly code: 'not-a-repository' | 'no-changes' | 'git-failed',
    message: string,
  ) {
    super(message);
    this.name = 'CommitChangesError';
  }
}

const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '-M'];
/** Read of one git command's output; a larger diff is cut here, before it is ever held whole. */
const MAX_READ_BYTES = 4 * 1024 * 1024;
const RECENT_SUBJECTS = 10;
const MAX_SUBJECT_CHARS = 200;

interface GitOutput {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The output passed MAX_READ_BYTES and the rest was not read. */
  readonly cut: boolean;
}

/** Runs a read-only git command; output beyond MAX_READ_BYTES is dropped (git is stopped). */
function runGit(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, signal?: AbortSignal, input?: string): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--no-optional-locks', '-c', 'core.quotepath=off', ...args], {
      cwd,
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      signal,
    });
    if (input !== undefined) child.stdin?.end(input);
    const chunks: Buffer[] = [];
    let size = 0;
    let cut = false;
    let stderr = '';
    // Both are pipes (the stdio above); only stdin may be closed.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (cut) return;
      const room = MAX_READ_BYTES - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        cut = true;
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new CommitChangesError('git-failed', 'git is not installed (not found on PATH)') : error),
    );
    child.on('close', (code) => resolve({ code: cut ? 0 : (code ?? 1), stdout: Buffer.concat(chunks).toString('utf8'), stderr, cut }));
  });
}

async function gitOk(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, signal?: AbortSignal, input?: string): Promise<GitOutput> {
  const output = await runGit(args, cwd, env, signal, input);
  if (output.code !== 0) throw new CommitChangesError('git-failed', `git ${args.join(' ')} failed: ${output.stderr.trim() || `exit ${output.code}`}`);
  return output;
}

/** `--name-status -z` output as files; a rename or copy has two paths. */
function parseNameStatus(text: string): CommitFile[] {
  const fields = text.split('\0');
  const files: CommitFile[] = [];
  for (let i = 0; i < fields.length && fields[i]; ) {
    const status = fields[i]!;
    if (/^[RC]/.test(status)) {
      files.push({ status, path: `${fields[i + 1]} -> ${fields[i + 2]}`, paths: [fields[i + 1] ?? '', fields[i + 2] ?? ''] });
      i += 3;
    } else {
      files.push({ status, path: fields[i + 1] ?? '', paths: [fields[i + 1] ?? ''] });
      i += 2;
    }
  }
  return files;
}

/**
 * The changes of the repository `cwd` is in: `staged`, `all`, or `auto` (the staged changes when
 * there are any, else all). Throws CommitChangesError when `cwd` is not in a work tree or there is
 * nothing to describe.
 */
export async function readCommitChanges(
  cwd: string,
  want: CommitScope | 'auto',
  options: { readonly limits?: Partial<PatchLimits>; readonly signal?: AbortSignal } = {},
): Promise<CommitChanges> {
  const env = gitEnvironment();
  const topOutput = await runGit(['rev-parse', '--show-toplevel'], cwd, env, options.signal);
  if (topOutput.code !== 0) throw new CommitChangesError('not-a-repository', `${cwd} is not in a git repository (${topOutput.stderr.trim()})`);
  const top = topOutput.stdout.trim();
  const hasHead = (await runGit(['rev-parse', '--verify', '--quiet', 'HEAD'], top, env, options.signal)).code === 0;
  const stagedAny = (await runGit(['diff', '--cached', '--quiet', ...DIFF_FLAGS], top, env, options.signal)).code === 1;
  const scope: CommitScope = want === 'auto' ? (stagedAny ? 'staged' : 'all') : want;
  const scratch = scope === 'all' ? await mkdtemp(join(tmpdir(), 'smith-commit-index-')) : undefined;
  try {
    let diffEnv = env;
    let range: string[] = ['--cached'];
    if (scratch) {
      // HEAD's tree in a scratch index, new files marked intent-to-add: `git diff` against it is
      // every change of the working tree, without hashing a file into the repository.
      diffEnv = { ...env, GIT_INDEX_FILE: join(scratch, 'index') };
      await gitOk(hasHead ? ['read-tree', 'HEAD'] : ['read-tree', '--empty'], top, diffEnv, options.signal);
      // Only the untracked files: `add --all` would also stage deletions, hiding them from the diff.
      const untracked = await gitOk(['ls-files', '--others', '--exclude-standard', '-z', '--', ':(top)'], top, diffEnv, options.signal);
      // A list cut at the read limit may end in half a name: that name is left out.
      const names = untracked.stdout
        .split('\0')
        .slice(0, untracked.cut ? -1 : undefined)
        .filter(Boolean);
      if (names.length > 0)
        await gitOk(
          ['add', '--intent-to-add', '--pathspec-from-file=-', '--pathspec-file-nul'],
          top,
          { ...diffEnv, GIT_LITERAL_PATHSPECS: '1' },
          options.signal,
          `${names.join('\0')}\0`,
        );
      range = [];
    }
    const names = await gitOk(['diff', ...range, ...DIFF_FLAGS, '--name-status', '-z'], top, diffEnv, options.signal);
    const files = parseNameStatus(names.stdout);
    if (files.length === 0) throw new CommitChangesError('no-changes', scope === 'staged' ? `nothing is staged in ${top}` : `there are no changes in ${top}`);
    // What .smithignore fences off from every tool stays out of the request too: named, never shown.
    const fence = await loadSmithIgnore(top);
    const withheld = files.filter((file) => file.paths.some((path) => fence.isIgnored(join(top, path))));
    const excluded = withheld.flatMap((file) => file.paths.map((path) => `:(top,exclude,literal)${path}`));
    const pathspec = excluded.length > 0 ? ['--', ':(top)', ...excluded] : [];
    const shortStat = (await gitOk(['diff', ...range, ...DIFF_FLAGS, '--shortstat'], top, diffEnv, options.signal)).stdout.trim();
    const patchOutput = await gitOk(['diff', ...range, ...DIFF_FLAGS, ...pathspec], top, diffEnv, options.signal);
    const bounded = boundedPatch(patchOutput.stdout, options.limits, patchOutput.cut);
    const log = hasHead ? await runGit(['log', `-n${RECENT_SUBJECTS}`, '--format=%s'], top, env, options.signal) : undefined;
    const recentSubjects = (log?.code === 0 ? log.stdout.split('\n') : []).filter(Boolean).map((s) => s.slice(0, MAX_SUBJECT_CHARS));
    return { top, scope, files, shortStat, patch: bounded.text, cut: bounded.cut, withheld, recentSubjects };
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}
