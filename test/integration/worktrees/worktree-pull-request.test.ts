// `openPullRequest` against a real remote: a bare repository in a temp folder is `origin`, its
// fetch URL a GitHub address and its push URL the bare repository, so the push is real and the
// address is what a GitHub remote gives. gh is kept off PATH (a folder holding only git), except
// where a stand-in gh shows the arguments it is given.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createWorktree, openPullRequest } from '../../../src/core/worktrees/worktree-tasks.js';
import { gitRepoPerTest, type GitRepo, worktreeRefusal } from '../../helpers/git-repo.js';

const repo = gitRepoPerTest();
const gitPath = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

describe('opening a pull request for a task', () => {
  let bin: string;
  let path: string | undefined;
  beforeEach(() => {
    // PATH with git and nothing else: no gh, whatever the machine has installed.
    bin = mkdtempSync(join(tmpdir(), 'smith-bin-'));
    symlinkSync(gitPath, join(bin, 'git'));
    path = process.env.PATH;
    process.env.PATH = bin;
  });
  afterEach(() => {
    process.env.PATH = path;
    rmSync(bin, { recursive: true, force: true });
  });

  /** A bare repository as `origin`: fetched as `url`, pushed to for real. */
  function withOrigin(r: GitRepo, url: string): string {
    const bare = join(r.home, 'origin.git');
    r.git(['init', '-q', '--bare', bare], r.home);
    r.git(['remote', 'add', 'origin', url]);
    r.git(['config', 'remote.origin.pushurl', bare]);
    return bare;
  }

  it('pushes the branch, with the pending work committed, and gives the GitHub page that opens the pull request', async () => {
    const r = repo();
    const bare = withOrigin(r, 'git@github.com:acme/shop.git');
    const { worktree } = await createWorktree(r.repo, { name: 'fix-login' });
    writeFileSync(join(worktree.path, 'login.txt'), 'fixed\n');
    r.commands.length = 0;
    const opened = await openPullRequest(r.repo, 'fix-login', { commitPending: 'Fix the login' }, r.listener);
    assert.deepEqual(opened, {
      branch: 'smith/fix-login',
      base: 'main',
      remote: 'origin',
      via: 'compare',
      url: 'https://github.com/acme/shop/compare/main...smith/fix-login?expand=1',
      committedPending: true,
    });
    // The bare repository has the branch, at the commit holding the task's work.
    const pushed = r.git(['rev-parse', 'refs/heads/smith/fix-login'], bare).trim();
    assert.equal(pushed, r.git(['rev-parse', 'smith/fix-login']).trim());
    assert.equal(r.git(['show', `${pushed}:login.txt`], bare), 'fixed\n');
    assert.equal(r.git(['log', '-1', '--format=%s', pushed], bare).trim(), 'Fix the login');
    assert.equal(r.git(['for-each-ref', '--format=%(refname)', 'refs/heads/'], bare).trim(), 'refs/heads/smith/fix-login', 'only the branch is pushed');
    // The branch still tracks its base (no --set-upstream), and no gh was run.
    assert.equal(r.git(['rev-parse', '--symbolic-full-name', 'smith/fix-login@{upstream}']).trim(), 'refs/heads/main');
    const changing = r.commands.filter((c) => c.changes).map((c) => c.argv.slice(0, 2).join(' '));
    assert.deepEqual(changing, ['git --literal-pathspecs', 'git commit', 'git push']);
    assert.deepEqual(r.commands.find((c) => c.argv[1] === 'push')?.argv, ['git', 'push', 'origin', 'refs/heads/smith/fix-login:refs/heads/smith/fix-login']);
  });

  it('pushes to a remote on another host and gives no address it cannot know', async () => {
    const r = repo();
    const bare = withOrigin(r, 'https://gitlab.com/acme/shop.git');
    await createWorktree(r.repo, { name: 'elsewhere' });
    const opened = await openPullRequest(r.repo, 'elsewhere');
    assert.equal(opened.via, 'compare');
    assert.equal(opened.url, undefined);
    assert.equal(r.git(['rev-parse', 'refs/heads/smith/elsewhere'], bare).trim(), r.git(['rev-parse', 'smith/elsewhere']).trim());
  });

  it('without a remote refuses clearly, before committing or pushing anything', async () => {
    const r = repo();
    const { worktree } = await createWorktree(r.repo, { name: 'lonely' });
    writeFileSync(join(worktree.path, 'work.txt'), 'work\n');
    r.commands.length = 0;
    const error = await worktreeRefusal(openPullRequest(r.repo, 'lonely', { commitPending: 'Work' }, r.listener), 'no-remote');
    assert.match(error.message, /no remote to push smith\/lonely to: add one \(`git remote add origin URL`\)/);
    assert.deepEqual(
      r.commands.filter((c) => c.changes),
      [],
    );
    assert.equal(r.git(['status', '--porcelain'], worktree.path), '?? work.txt\n');
  });

  it('names the remotes there are when the one asked for is not among them', async () => {
    const r = repo();
    withOrigin(r, 'https://github.com/acme/shop.git');
    await createWorktree(r.repo, { name: 'named' });
    const error = await worktreeRefusal(openPullRequest(r.repo, 'named', { remote: 'upstream' }), 'no-remote');
    assert.match(error.message, /no remote "upstream" .*\(its remotes: origin\)/);
  });

  it('a push the remote refuses is reported with its reason, and no address is given', async () => {
    const r = repo();
    const bare = withOrigin(r, 'https://github.com/acme/shop.git');
    writeFileSync(join(bare, 'hooks', 'pre-receive'), '#!/bin/sh\necho "pushes are closed" >&2\nexit 1\n', { mode: 0o755 });
    await createWorktree(r.repo, { name: 'refused' });
    const error = await worktreeRefusal(openPullRequest(r.repo, 'refused'), 'git-failed');
    assert.match(error.message, /Pushing smith\/refused to origin failed: .*pushes are closed/s);
  });

  it('with gh on PATH, opens the pull request with it into the base, after the push', async () => {
    const r = repo();
    const bare = withOrigin(r, 'https://github.com/acme/shop.git');
    const argsFile = join(r.home, 'gh-args');
    // A stand-in for the GitHub CLI: it records its arguments and prints an address, as gh does.
    writeFileSync(join(bin, 'gh'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${argsFile}'\necho https://github.com/acme/shop/pull/7\n`, {
      mode: 0o755,
    });
    await createWorktree(r.repo, { name: 'with-gh' });
    const opened = await openPullRequest(r.repo, 'with-gh', { title: 'Fix it', body: 'Why', draft: true });
    assert.equal(opened.via, 'gh');
    assert.equal(opened.url, 'https://github.com/acme/shop/pull/7');
    assert.equal(
      readFileSync(argsFile, 'utf8'),
      ['pr', 'create', '--base', 'main', '--head', 'smith/with-gh', '--title', 'Fix it', '--body', 'Why', '--draft', ''].join('\n'),
    );
    assert.ok(r.git(['rev-parse', 'refs/heads/smith/with-gh'], bare).trim());
  });
});
