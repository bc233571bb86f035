import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createWorktree, listWorktrees } from '../../../src/core/worktrees/worktree-tasks.js';
import { gitRepoPerTest, worktreeRefusal } from '../../helpers/git-repo.js';

const repo = gitRepoPerTest();

describe('making a worktree for a task', () => {
  it('makes the branch smith/<name> and its worktree beside the repository, outside the workspace, tracking the base', async () => {
    const r = repo();
    const made = await createWorktree(r.repo, { name: 'fix-login' }, {}, r.listener);
    assert.equal(made.worktree.branch, 'smith/fix-login');
    assert.equal(made.worktree.path, join(r.home, '.smith-worktrees', 'repo', 'fix-login'));
    assert.equal(made.workspace, made.worktree.path);
    assert.equal(made.worktree.base, 'main');
    assert.equal(made.worktree.baseCommit, r.git(['rev-parse', 'main']).trim());
    assert.equal(readFileSync(join(made.worktree.path, 'README.md'), 'utf8'), '# test\n');
    assert.ok(lstatSync(join(made.worktree.path, '.git')).isFile(), 'a linked worktree has a .git file');
    assert.equal(r.git(['rev-parse', '--symbolic-full-name', 'smith/fix-login@{upstream}']).trim(), 'refs/heads/main');
    // The main tree is untouched: still on main, nothing new in it.
    assert.equal(r.git(['symbolic-ref', '--short', 'HEAD']).trim(), 'main');
    assert.equal(r.git(['status', '--porcelain']), '');
    // The one command that changed the repository, reported with its exact argv before it ran.
    const writes = r.commands.filter((c) => c.changes);
    assert.deepEqual(
      writes.map((c) => c.argv),
      [['git', 'worktree', 'add', '--track', '-b', 'smith/fix-login', '--', made.worktree.path, 'main']],
    );
    const listed = await listWorktrees(r.repo);
    assert.deepEqual(
      listed.map((t) => [t.name, t.branch, t.path, t.base, t.exists]),
      [['fix-login', 'smith/fix-login', made.worktree.path, 'main', true]],
    );
  });

  it('takes the name from the task text when none is given', async () => {
    const r = repo();
    const made = await createWorktree(r.repo, { task: 'Fix the login form: it drops the password' });
    assert.equal(made.worktree.name, 'fix-the-login-form-it-drops-the');
  });

  it('makes a name with "..", spaces, slashes or a leading dash into one safe path segment and branch', async () => {
    const r = repo();
    for (const [asked, expected] of [
      ['../../escape', 'escape'],
      ['my task name', 'my-task-name'],
      ['feature/a/b', 'feature-a-b'],
      ['--force', 'force'],
      ['-b x', 'b-x'],
      ['.hidden..name.lock', 'hidden-name'],
    ] as const) {
      const made = await createWorktree(r.repo, { name: asked });
      assert.equal(made.worktree.name, expected, asked);
      assert.equal(made.worktree.path, join(r.home, '.smith-worktrees', 'repo', expected));
      assert.ok(
        made.notes.some((note) => note.includes(`"${expected}"`)),
        'the changed name is told',
      );
    }
    assert.equal(existsSync(join(r.home, 'escape')), false);
    await worktreeRefusal(createWorktree(r.repo, { name: '../..' }), 'bad-name');
    await worktreeRefusal(createWorktree(r.repo, { name: '/// ' }), 'bad-name');
  });

  it('never reuses a name: a taken branch or folder gets the next free suffix', async () => {
    const r = repo();
    const first = await createWorktree(r.repo, { name: 'same' });
    const second = await createWorktree(r.repo, { name: 'same' });
    r.git(['branch', 'smith/same-3']);
    mkdirSync(join(r.home, '.smith-worktrees', 'repo', 'same-4'));
    const third = await createWorktree(r.repo, { name: 'same' });
    assert.deepEqual([first.worktree.name, second.worktree.name, third.worktree.name], ['same', 'same-2', 'same-5']);
    assert.equal((await listWorktrees(r.repo)).length, 3);
  });

  it('gives tasks started at the same moment with one name different names', async () => {
    const r = repo();
    const made = await Promise.all([1, 2, 3, 4].map(() => createWorktree(r.repo, { name: 'race' })));
    assert.deepEqual(made.map((m) => m.worktree.name).sort(), ['race', 'race-2', 'race-3', 'race-4']);
    assert.equal((await listWorktrees(r.repo)).length, 4);
  });

  it('refuses a folder that is not in a git repository, and a bare repository', async () => {
    const r = repo();
    const plain = join(r.home, 'plain');
    mkdirSync(plain);
    const error = await worktreeRefusal(createWorktree(plain, { name: 'x' }), 'not-a-repository');
    assert.match(error.message, /not in a git repository/);
    r.git(['clone', '-q', '--bare', r.repo, join(r.home, 'bare.git')], r.home);
    await worktreeRefusal(createWorktree(join(r.home, 'bare.git'), { name: 'x' }), 'bare-repository');
    await worktreeRefusal(createWorktree(join(r.repo, '.git'), { name: 'x' }), 'inside-git-folder');
  });

  it('refuses a repository without a commit and a detached HEAD', async () => {
    const r = repo();
    const empty = join(r.home, 'empty');
    r.git(['init', '-q', empty], r.home);
    await worktreeRefusal(createWorktree(empty, { name: 'x' }), 'no-commit');
    r.git(['checkout', '-q', '--detach']);
    await worktreeRefusal(createWorktree(r.repo, { name: 'x' }), 'detached-head');
    await worktreeRefusal(createWorktree(r.repo, { name: 'x', base: 'no-such-branch' }), 'bad-base');
    const based = await createWorktree(r.repo, { name: 'x', base: 'main' });
    assert.equal(based.worktree.base, 'main');
  });

  it('refuses a parent inside the workspace or inside .git, also through a symbolic link', async () => {
    const r = repo();
    await worktreeRefusal(createWorktree(r.repo, { name: 'x' }, { parent: join(r.repo, 'trees') }), 'bad-parent');
    await worktreeRefusal(createWorktree(r.repo, { name: 'x' }, { parent: join(r.repo, '.git', 'trees') }), 'bad-parent');
    // `<home>` as the parent makes `<home>/repo/x`: inside the repository.
    await worktreeRefusal(createWorktree(r.repo, { name: 'x' }, { parent: r.home }), 'bad-parent');
    symlinkSync(join(r.repo, '.git'), join(r.home, 'sneaky'));
    const error = await worktreeRefusal(createWorktree(r.repo, { name: 'x' }, { parent: join(r.home, 'sneaky') }), 'bad-parent');
    assert.match(error.message, /git folder/);
    await worktreeRefusal(createWorktree(r.repo, { name: 'x' }, { parent: join(r.home, 'elsewhere', '..', 'repo', 'sub') }), 'bad-parent');
    await worktreeRefusal(createWorktree(r.repo, { name: 'x' }, { parent: 'relative/folder' }), 'bad-parent');
    // Nothing was made by the refusals.
    assert.equal(r.git(['worktree', 'list', '--porcelain']).match(/^worktree /gm)?.length, 1);
    assert.equal(existsSync(join(r.repo, 'trees')), false);
    const fine = await createWorktree(r.repo, { name: 'x' }, { parent: join(r.home, 'trees') });
    assert.equal(fine.worktree.path, join(r.home, 'trees', 'repo', 'x'));
  });

  it('copies the opt-in untracked files, never a link pointing outside, and not a tracked file', async () => {
    const r = repo({ initialFiles: { 'README.md': 'x\n', '.gitignore': '.env*\nconfig/*.local.json\n', 'config/app.json': '{}\n' } });
    r.write('.env', 'SECRET=1\n');
    r.write('config/app.local.json', '{"local":true}\n');
    r.write('sub/.env', 'SUB=1\n');
    writeFileSync(join(r.home, 'outside-secret'), 'do not copy\n');
    symlinkSync(join(r.home, 'outside-secret'), join(r.repo, '.env.local'));
    r.write('big.env', 'x'.repeat(2 * 1024 * 1024));
    const made = await createWorktree(r.repo, { name: 'copy' }, { copyFiles: ['.env', '.env.local', 'config/*.local.json', 'config/app.json', 'big.env'] });
    const tree = made.worktree.path;
    assert.deepEqual([...made.copies.copied].sort(), ['.env', 'config/app.local.json', 'sub/.env']);
    assert.equal(readFileSync(join(tree, '.env'), 'utf8'), 'SECRET=1\n');
    assert.equal(readFileSync(join(tree, 'sub/.env'), 'utf8'), 'SUB=1\n');
    assert.equal(existsSync(join(tree, '.env.local')), false, 'the link is not followed nor copied');
    const skipped = Object.fromEntries(made.copies.skipped.map((s) => [s.path, s.reason]));
    assert.match(skipped['.env.local'] ?? '', /symbolic link/);
    assert.match(skipped['config/app.json'] ?? '', /tracked/);
    assert.match(skipped['big.env'] ?? '', /larger than/);
    assert.equal(existsSync(join(tree, 'big.env')), false);
    await worktreeRefusal(createWorktree(r.repo, { name: 'y' }, { copyFiles: ['../outside-secret'] }), 'bad-copy-pattern');
  });

  it('does not write a copied file through a link the checkout holds', async () => {
    const r = repo();
    const target = join(r.home, 'target');
    mkdirSync(target);
    // HEAD has `config` as a link to a folder outside; the workspace has since made it a real folder.
    symlinkSync(target, join(r.repo, 'config'));
    r.commit('config is a link');
    unlinkSync(join(r.repo, 'config'));
    r.write('config/x.local', 'secret\n');
    const made = await createWorktree(r.repo, { name: 'links' }, { copyFiles: ['config/x.local'] });
    assert.ok(lstatSync(join(made.worktree.path, 'config')).isSymbolicLink(), 'the checkout holds the link');
    assert.deepEqual(made.copies.copied, []);
    assert.match(made.copies.skipped[0]?.reason ?? '', /config is not a folder in the worktree/);
    assert.deepEqual(readdirSync(target), [], 'nothing was written through the link');
  });

  it('does not enter a linked folder of the workspace', async () => {
    const r = repo();
    const outside = join(r.home, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, '.env'), 'OUTSIDE=1\n');
    symlinkSync(outside, join(r.repo, 'linked'));
    const made = await createWorktree(r.repo, { name: 'linked' }, { copyFiles: ['.env', 'linked/.env'] });
    assert.deepEqual(made.copies.copied, []);
    assert.equal(existsSync(join(made.worktree.path, 'linked')), false);
  });

  it('refuses a parent it cannot make, saying which setting to change', async () => {
    const r = repo();
    writeFileSync(join(r.home, 'a-file'), '');
    const error = await worktreeRefusal(createWorktree(r.repo, { name: 'x' }, { parent: join(r.home, 'a-file') }), 'bad-parent');
    assert.match(error.message, /Cannot make the worktree folder .*smith\.worktree\.parent/);
    assert.equal(r.git(['branch', '--list', 'smith/*']), '');
  });

  it('says that submodules stay empty and nested repositories are left out', async () => {
    const r = repo();
    const lib = join(r.home, 'lib');
    r.git(['init', '-q', '-b', 'main', lib], r.home);
    r.git(['-c', 'user.email=t@e', '-c', 'user.name=T', 'commit', '-q', '--allow-empty', '-m', 'lib'], lib);
    r.git(['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'vendor/lib']);
    r.commit('submodule');
    r.git(['init', '-q', join(r.repo, 'nested')]);
    const made = await createWorktree(r.repo, { name: 'sub' });
    assert.ok(
      made.notes.some((n) => n.includes('vendor/lib') && n.includes('git submodule update --init')),
      made.notes.join('\n'),
    );
    assert.ok(
      made.notes.some((n) => n.includes('nested')),
      made.notes.join('\n'),
    );
    assert.equal(existsSync(join(made.worktree.path, 'vendor/lib/.git')), false);
    // The submodule's own checkout is refused as a workspace.
    await worktreeRefusal(createWorktree(join(r.repo, 'vendor/lib'), { name: 'x' }), 'submodule');
  });

  it('for a workspace below the repository top, works in the same folder of the worktree', async () => {
    const r = repo({ initialFiles: { 'packages/app/index.js': '1\n' } });
    const made = await createWorktree(join(r.repo, 'packages/app'), { name: 'app' });
    assert.equal(made.worktree.path, join(r.home, '.smith-worktrees', 'repo', 'app'));
    assert.equal(made.workspace, join(made.worktree.path, 'packages/app'));
    assert.equal(readFileSync(join(made.workspace, 'index.js'), 'utf8'), '1\n');
  });

  it('ignores GIT_DIR and GIT_WORK_TREE in its own environment', async () => {
    const r = repo();
    const other = join(r.home, 'other');
    r.git(['init', '-q', other], r.home);
    process.env.GIT_DIR = join(other, '.git');
    process.env.GIT_WORK_TREE = other;
    try {
      const made = await createWorktree(r.repo, { name: 'env' });
      assert.equal(made.worktree.repository, r.repo);
    } finally {
      delete process.env.GIT_DIR;
      delete process.env.GIT_WORK_TREE;
    }
  });
});
