import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { afterEach } from 'node:test';
import { type GitCommand, WorktreeError } from '../../src/core/worktrees/worktree-tasks.js';

/** A real git repository in a fresh temp folder (`<home>/repo`), with one commit on `main`. */
export interface GitRepo {
  /** The temp folder holding the repository (and, by default, its `.smith-worktrees`). */
  readonly home: string;
  readonly repo: string;
  /** Runs git in the repository (or `cwd`) and returns its stdout; throws when it fails. */
  git(args: readonly string[], cwd?: string): string;
  write(relativePath: string, content: string): string;
  read(relativePath: string): string;
  /** Stages everything and commits. */
  commit(message: string): string;
  /** Every git command the worktree functions reported, in order. */
  readonly commands: GitCommand[];
  readonly listener: (command: GitCommand) => void;
  dispose(): void;
}

/** The environment git runs with in tests: no user or system config, a fixed identity from the repository's own config. */
function testGitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return env;
}

type GitRepoOptions = { readonly initialFiles?: Record<string, string> };

/** Makes repositories for the tests of one file and removes them after each test. */
export function gitRepoPerTest(defaults: GitRepoOptions = {}): (options?: GitRepoOptions) => GitRepo {
  let repos: GitRepo[] = [];
  afterEach(() => {
    for (const made of repos) made.dispose();
    repos = [];
  });
  return (options = defaults) => {
    const made = createGitRepo(options);
    repos.push(made);
    return made;
  };
}

/** Awaits a worktree step that must be refused with `code`, and returns the refusal. */
export async function worktreeRefusal(promise: Promise<unknown>, code: string): Promise<WorktreeError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof WorktreeError, `expected a WorktreeError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected a ${code} refusal`);
}

export function createGitRepo(options: GitRepoOptions = {}): GitRepo {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'smith-git-')));
  const repo = join(home, 'repo');
  const git = (args: readonly string[], cwd = repo) => execFileSync('git', [...args], { cwd, env: testGitEnv(), encoding: 'utf8' });
  mkdirSync(repo);
  git(['init', '-q', '-b', 'main']);
  git(['config', 'user.email', 'test@example.com']);
  git(['config', 'user.name', 'Test']);
  git(['config', 'commit.gpgsign', 'false']);
  const write = (relativePath: string, content: string) => {
    const full = join(repo, relativePath);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    return full;
  };
  for (const [path, content] of Object.entries(options.initialFiles ?? { 'README.md': '# test\n' })) write(path, content);
  const commit = (message: string) => {
    git(['add', '--all']);
    git(['commit', '-q', '-m', message]);
    return git(['rev-parse', 'HEAD']).trim();
  };
  commit('first');
  const commands: GitCommand[] = [];
  return {
    home,
    repo,
    git,
    write,
    read: (relativePath) => readFileSync(join(repo, relativePath), 'utf8'),
    commit,
    commands,
    listener: (command) => commands.push(command),
    dispose: () => rmSync(home, { recursive: true, force: true }),
  };
}
