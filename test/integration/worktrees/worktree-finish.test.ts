import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createWorktree, diffWorktree, discardWorktree, listWorktrees, mergeWorktree } from '../../../src/core/worktrees/worktree-tasks.js';
import { type GitRepo, gitRepoPerTest, worktreeRefusal } from '../../helpers/git-repo.js';

const repo = gitRepoPerTest({ initialFiles: { 'app.txt': 'line 1\nline 2\nline 3\n', '.gitignore': '.env\n' } });

/** The state a refused or undone merge must leave: HEAD, the index and the working tree's status. */
function snapshot(r: GitRepo): string {
  return [r.git(['rev-parse', 'HEAD']), r.git(['status', '--porcelain=v1', '--untracked-files=all']), r.read('app.txt')].join('\n');
}

describe('finishing a worktree task', () => {
  it('diffs the branch against its base, with what the worktree has not committed', async () => {
    const r = repo();
    const { worktree } = await createWorktree(r.repo, { name: 'd' });
    writeFileSync(join(worktree.path, 'app.txt'), 'line 1\nline 2 changed\nline 3\n');
    r.git(['commit', '-q', '-am', 'change line 2'], worktree.path);
    writeFileSync(join(worktree.path, 'app.txt'), 'line 1\nline 2 changed\nline 3 too\n');
    writeFileSync(join(worktree.path, 'new.txt'), 'new\n');
    // A commit on the base after the task started is not part of the task's diff (base...branch).
    r.write('base-only.txt', 'b\n');
    r.commit('base moves on');
    const diff = await diffWorktree(r.repo, 'd');
    assert.deepEqual(diff.committed.files, [{ status: 'M', path: 'app.txt' }]);
    assert.match(diff.committed.text, /\+line 2 changed/);
    assert.doesNotMatch(diff.committed.text, /base-only/);
    assert.deepEqual(diff.uncommitted.files, [{ status: 'M', path: 'app.txt' }]);
    assert.match(diff.uncommitted.text, /\+line 3 too/);
    assert.deepEqual(diff.untracked, ['new.txt']);
  });

  it('fast-forwards the base, committing what the task left uncommitted (never a copied file)', async () => {
    const r = repo();
    r.write('.env', 'SECRET=1\n');
    r.write('.env2', 'S=2\n');
    const { worktree } = await createWorktree(r.repo, { name: 'ff' }, { copyFiles: ['.env', '.env2'] });
    writeFileSync(join(worktree.path, 'app.txt'), 'line 1\nline 2 by the task\nline 3\n');
    writeFileSync(join(worktree.path, 'added.txt'), 'added\n');
    await worktreeRefusal(mergeWorktree(r.repo, 'ff'), 'uncommitted-changes');
    r.commands.length = 0;
    const merged = await mergeWorktree(r.repo, 'ff', { commitPending: 'The work of the task', copyFiles: ['.env', '.env2'] }, r.listener);
    assert.equal(merged.kind, 'fast-forward');
    assert.equal(merged.committedPending, true);
    assert.equal(merged.mergedIn, r.repo);
    assert.equal(r.read('app.txt'), 'line 1\nline 2 by the task\nline 3\n');
    assert.equal(r.read('added.txt'), 'added\n');
    assert.equal(r.git(['rev-parse', 'HEAD']).trim(), r.git(['rev-parse', 'smith/ff']).trim());
    // .env2 is not ignored, but it came from the copy patterns: never committed.
    assert.equal(r.git(['ls-files', '.env2', '.env']), '');
    assert.equal(existsSync(join(worktree.path, '.env2')), true);
    const writes = r.commands.filter((c) => c.changes).map((c) => c.argv.slice(0, 3).join(' '));
    assert.deepEqual(writes, ['git --literal-pathspecs add', 'git commit --quiet', 'git merge --no-edit']);
    assert.equal((await mergeWorktree(r.repo, 'ff', { copyFiles: ['.env', '.env2'] })).kind, 'up-to-date');
    await discardWorktree(r.repo, 'ff', { copyFiles: ['.env2'] });
  });

  it('makes a merge commit when the base moved on, and squashes when asked', async () => {
    const r = repo();
    const { worktree } = await createWorktree(r.repo, { name: 'm' });
    writeFileSync(join(worktree.path, 'task.txt'), 'task\n');
    r.git(['add', 'task.txt'], worktree.path);
    r.git(['commit', '-q', '-m', 'task'], worktree.path);
    r.write('other.txt', 'other\n');
    r.commit('base moves on');
    const merged = await mergeWorktree(r.repo, 'm');
    assert.equal(merged.kind, 'merge-commit');
    assert.equal(r.git(['rev-list', '--parents', '-n', '1', 'HEAD']).trim().split(' ').length, 3);
    const squashed = await createWorktree(r.repo, { name: 's' });
    writeFileSync(join(squashed.worktree.path, 's.txt'), 's\n');
    const result = await mergeWorktree(r.repo, 's', { squash: true, message: 'Squashed task', commitPending: 'wip' });
    assert.equal(result.kind, 'squash');
    assert.equal(r.git(['log', '-1', '--format=%s']).trim(), 'Squashed task');
    assert.equal(r.git(['rev-list', '--parents', '-n', '1', 'HEAD']).trim().split(' ').length, 2);
    // Squash-merged work counts as merged: discarding needs no force.
    await discardWorktree(r.repo, 's');
  });

  it('refuses a conflicting merge and leaves both trees exactly as they were', async () => {
    const r = repo();
    const { worktree } = await createWorktree(r.repo, { name: 'c' });
    writeFileSync(join(worktree.path, 'app.txt'), 'line 1\nline 2 from the task\nline 3\n');
    r.git(['commit', '-q', '-am', 'task edit'], worktree.path);
    r.write('app.txt', 'line 1\nline 2 from main\nline 3\n');
    r.commit('main edit');
    r.write('unrelated.txt', 'local work\n');
    const before = snapshot(r);
    const branchBefore = r.git(['rev-parse', 'smith/c']);
    const error = await worktreeRefusal(mergeWorktree(r.repo, 'c'), 'conflict');
    assert.deepEqual(error.files, ['app.txt']);
    assert.match(error.message, /app\.txt/);
    assert.equal(snapshot(r), before);
    assert.equal(r.git(['rev-parse', 'smith/c']), branchBefore);
    assert.equal(existsSync(join(r.repo, '.git', 'MERGE_HEAD')), false);
    assert.equal(readFileSync(join(worktree.path, 'app.txt'), 'utf8'), 'line 1\nline 2 from the task\nline 3\n');
  });

  it('refuses while the base tree has local changes in a file the merge touches, and merges when they are elsewhere', async () => {
    const r = repo();
    const { worktree } = await createWorktree(r.repo, { name: 'dirty' });
    writeFileSync(join(worktree.path, 'app.txt'), 'line 1\nline 2\nline 3\nline 4\n');
    writeFileSync(join(worktree.path, 'brand-new.txt'), 'from the task\n');
    r.git(['add', '--all'], worktree.path);
    r.git(['commit', '-q', '-m', 'task'], worktree.path);
    r.write('app.txt', 'line 1 edited locally\nline 2\nline 3\n');
    r.write('brand-new.txt', 'untracked local file\n');
    const before = snapshot(r);
    const error = await worktreeRefusal(mergeWorktree(r.repo, 'dirty'), 'dirty-base');
    assert.deepEqual([...error.files].sort(), ['app.txt', 'brand-new.txt']);
    assert.match(error.message, /app\.txt/);
    assert.equal(snapshot(r), before);
    r.git(['checkout', '-q', '--', 'app.txt']);
    r.git(['clean', '-qf', 'brand-new.txt']);
    r.write('elsewhere.txt', 'local\n');
    assert.equal((await mergeWorktree(r.repo, 'dirty')).kind, 'fast-forward');
    assert.equal(r.read('elsewhere.txt'), 'local\n');
  });

  it('refuses to discard uncommitted changes or unmerged commits unless forced', async () => {
    const r = repo();
    const { worktree } = await createWorktree(r.repo, { name: 'x' });
    writeFileSync(join(worktree.path, 'app.txt'), 'changed\n');
    const dirty = await worktreeRefusal(discardWorktree(r.repo, 'x'), 'uncommitted-changes');
    assert.deepEqual(dirty.files, ['app.txt']);
    assert.equal(existsSync(worktree.path), true);
    r.git(['commit', '-q', '-am', 'work'], worktree.path);
    await worktreeRefusal(discardWorktree(r.repo, 'x'), 'unmerged-commits');
    assert.match(r.git(['branch', '--list', 'smith/x']), /smith\/x/);
    writeFileSync(join(worktree.path, 'more.txt'), 'more\n');
    r.commands.length = 0;
    const discarded = await discardWorktree(r.repo, 'x', { force: true }, r.listener);
    assert.deepEqual(discarded.lostChanges, ['more.txt']);
    assert.equal(discarded.lostCommits.length, 1);
    assert.equal(existsSync(worktree.path), false);
    assert.equal(r.git(['branch', '--list', 'smith/x']), '');
    assert.deepEqual(
      r.commands.filter((c) => c.changes).map((c) => c.argv),
      [
        ['git', 'worktree', 'remove', '--force', worktree.path],
        ['git', 'branch', '-D', 'smith/x'],
      ],
    );
    assert.deepEqual(await listWorktrees(r.repo), []);
    assert.equal(existsSync(join(r.home, '.smith-worktrees', 'repo')), false, 'the emptied folder goes too');
  });

  it('discards a clean task without force, also when its folder was deleted by hand', async () => {
    const r = repo();
    const clean = await createWorktree(r.repo, { name: 'clean' });
    const gone = await createWorktree(r.repo, { name: 'gone' });
    await discardWorktree(r.repo, 'clean');
    assert.equal(existsSync(clean.worktree.path), false);
    r.git(['worktree', 'list']);
    (await import('node:fs')).rmSync(gone.worktree.path, { recursive: true, force: true });
    assert.equal((await listWorktrees(r.repo))[0]?.exists, false);
    await discardWorktree(r.repo, 'smith/gone');
    assert.deepEqual(await listWorktrees(r.repo), []);
    await worktreeRefusal(discardWorktree(r.repo, 'gone'), 'not-found');
  });

  it("runs the repository's hooks: a pre-commit hook that refuses stops the merge, and nothing is lost", async () => {
    const r = repo();
    const { worktree } = await createWorktree(r.repo, { name: 'hooked' });
    const hook = join(r.repo, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\necho "lint failed: fix app.txt" >&2\nexit 1\n', { mode: 0o755 });
    writeFileSync(join(worktree.path, 'app.txt'), 'edited by the task\n');
    const before = snapshot(r);
    const error = await worktreeRefusal(mergeWorktree(r.repo, 'hooked', { commitPending: 'work' }), 'commit-failed');
    assert.match(error.message, /lint failed: fix app\.txt/);
    assert.match(error.message, /nothing is lost/);
    assert.equal(readFileSync(join(worktree.path, 'app.txt'), 'utf8'), 'edited by the task\n');
    assert.equal(r.git(['diff', '--cached', '--name-only'], worktree.path), 'app.txt\n');
    assert.equal(snapshot(r), before);
    (await import('node:fs')).rmSync(hook);
    assert.equal((await mergeWorktree(r.repo, 'hooked', { commitPending: 'work' })).kind, 'fast-forward');
  });

  it('aborts a merge git started and could not finish (a refusing pre-merge-commit hook), leaving the base as it was', async () => {
    const r = repo();
    const { worktree } = await createWorktree(r.repo, { name: 'aborted' });
    writeFileSync(join(worktree.path, 'task.txt'), 'task\n');
    r.git(['add', 'task.txt'], worktree.path);
    r.git(['commit', '-q', '-m', 'task'], worktree.path);
    r.write('other.txt', 'other\n');
    r.commit('base moves on');
    writeFileSync(join(r.repo, '.git', 'hooks', 'pre-merge-commit'), '#!/bin/sh\necho "no merge commits here" >&2\nexit 1\n', { mode: 0o755 });
    const before = snapshot(r);
    r.commands.length = 0;
    const error = await worktreeRefusal(mergeWorktree(r.repo, 'aborted', {}, r.listener), 'git-failed');
    assert.match(error.message, /no merge commits here/);
    assert.match(error.message, /was undone/);
    assert.deepEqual(r.commands.filter((c) => c.changes).at(-1)?.argv, ['git', 'merge', '--abort']);
    assert.equal(snapshot(r), before);
    assert.equal(existsSync(join(r.repo, '.git', 'MERGE_HEAD')), false);
  });
});
