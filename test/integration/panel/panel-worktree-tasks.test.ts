// A task started from the panel in a new git worktree (real git, the scripted model): it works in
// the worktree, the task list shows its branch and the git commands run for it; when it is done,
// Review changes opens the multi-file diff against the base, Discard asks before losing work, Merge
// brings the work into the base branch, and Discard then removes the worktree and the branch.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { createGitRepo } from '../../helpers/git-repo.js';
import { openPanelBackend } from '../../helpers/panel-backend.js';

const WRITE = { text: '<write_to_file>\n<path>feature.txt</path>\n<content>Feature\n</content>\n</write_to_file>' };
const DONE = { text: '<attempt_completion>\n<result>Added feature.txt.</result>\n</attempt_completion>' };

describe('the panel: a task in a new worktree', { timeout: 120_000 }, () => {
  const fixture = useTaskFixture();
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  test('runs in its worktree; review, discard (asked), merge and discard act on its branch, each git command listed', async () => {
    const repo = createGitRepo({ initialFiles: { 'README.md': 'Hello\n' } });
    closers.push(() => repo.dispose());
    const panel = openPanelBackend(fixture, closers, { cwd: repo.repo, worktree: { parent: join(repo.home, 'worktrees') } });
    const state = () => panel.page.state.panel!;
    const listed = () => state().tasks?.find((task) => task.id === state().task?.id);
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(WRITE, DONE);

    await panel.client.request({ type: 'newTask', text: 'Add feature.txt', worktree: true });
    await panel.until(() => state().task?.pendingApproval !== undefined, 'the approval of the edit');
    const worktree = listed()!.worktree!;
    assert.equal(worktree.branch, 'smith/add-feature.txt');
    assert.equal(worktree.base, 'main');
    assert.equal(worktree.path, join(repo.home, 'worktrees', 'repo', 'add-feature.txt'));
    assert.ok(
      worktree.commands.some((line) => line.startsWith(`git worktree add --track -b smith/add-feature.txt -- ${worktree.path} main`)),
      worktree.commands.join('\n'),
    );
    await panel.client.request({ type: 'approve', callId: state().task!.pendingApproval!.callId });
    await panel.until(() => state().task?.status === 'completed', 'the task completes');
    // The task worked in its worktree; the workspace is untouched.
    assert.equal(existsSync(join(worktree.path, 'feature.txt')), true);
    assert.equal(existsSync(join(repo.repo, 'feature.txt')), false);

    // Review: the multi-file diff, the file against its (absent) base version.
    await panel.client.request({ type: 'worktreeAction', taskId: state().task!.id, action: 'review' });
    assert.deepEqual(panel.views.comparisons.at(-1), {
      title: 'smith/add-feature.txt against main',
      files: [{ path: 'feature.txt', before: undefined, existsNow: true }],
    });

    // Discard while the worktree holds uncommitted work: asked first; declined, nothing is removed.
    panel.views.answer = false;
    await panel.client.request({ type: 'worktreeAction', taskId: state().task!.id, action: 'discard' });
    assert.match(panel.views.questions.at(-1) ?? '', /Discard smith\/add-feature\.txt\?[\s\S]*feature\.txt/);
    assert.equal(existsSync(worktree.path), true);
    assert.equal(listed()!.worktree!.outcome, undefined);

    // Merge: the pending change is committed with the task's title and merged into main.
    await panel.client.request({ type: 'worktreeAction', taskId: state().task!.id, action: 'merge' });
    await panel.until(() => listed()?.worktree?.outcome === 'merged', 'merged');
    assert.equal(repo.read('feature.txt'), 'Feature\n');
    assert.match(repo.git(['log', '-1', '--format=%s', 'main']), /Add feature\.txt/);
    const commands = listed()!.worktree!.commands;
    assert.ok(
      commands.some((line) => line.startsWith('git merge --no-edit smith/add-feature.txt')),
      commands.join('\n'),
    );

    // Discard now loses nothing: no question, the worktree and the branch are gone.
    const asked = panel.views.questions.length;
    await panel.client.request({ type: 'worktreeAction', taskId: state().task!.id, action: 'discard' });
    await panel.until(() => listed()?.worktree?.outcome === 'discarded', 'discarded');
    assert.equal(panel.views.questions.length, asked);
    assert.equal(existsSync(worktree.path), false);
    assert.equal(repo.git(['branch', '--list', 'smith/add-feature.txt']).trim(), '');
    // A discarded worktree refuses further actions, and the task cannot continue there.
    await assert.rejects(panel.client.request({ type: 'worktreeAction', taskId: state().task!.id, action: 'merge' }), /was discarded/);
    await assert.rejects(panel.client.request({ type: 'sendMessage', text: 'More', taskId: state().task!.id }), /discarded/);
    assert.deepEqual(panel.page.problems, []);
  });

  test('a workspace outside git refuses the worktree with the reason, and starts nothing', async () => {
    const panel = openPanelBackend(fixture, closers, { worktree: {} });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await assert.rejects(panel.client.request({ type: 'newTask', text: 'Add feature.txt', worktree: true }), /not in a git repository/);
    assert.equal(panel.page.state.panel!.task, undefined);
    assert.equal(fixture.server.requests.length, 0);
    // A task not in a worktree has no worktree actions.
    fixture.server.enqueue(DONE);
    await panel.client.request({ type: 'newTask', text: 'Say done' });
    await panel.until(() => panel.page.state.panel?.task?.status === 'completed', 'the task completes');
    await assert.rejects(panel.client.request({ type: 'worktreeAction', taskId: panel.page.state.panel!.task!.id, action: 'merge' }), /no worktree of its own/);
  });
  test('the base branches are listed for the choice; a task starts in a worktree with the name and base chosen; an unknown base is refused', async () => {
    const repo = createGitRepo({ initialFiles: { 'README.md': 'Hello\n' } });
    closers.push(() => repo.dispose());
    repo.git(['checkout', '-q', '-b', 'release']);
    repo.write('release.txt', 'on release\n');
    repo.commit('release work');
    repo.git(['checkout', '-q', 'main']);
    const panel = openPanelBackend(fixture, closers, { cwd: repo.repo, worktree: { parent: join(repo.home, 'worktrees') } });
    const state = () => panel.page.state.panel!;
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await panel.client.request({ type: 'listBaseBranches' });
    await panel.until(() => state().baseBranches !== undefined, 'the branches');
    assert.deepEqual(state().baseBranches, { branches: ['main', 'release'], current: 'main' });

    await assert.rejects(
      panel.client.request({ type: 'newTask', text: 'Backport', worktree: true, worktreeBase: 'origin/release' }),
      /There is no local branch "origin\/release" to start from \(the local branches: main, release\)/,
    );
    assert.equal(state().task, undefined);
    assert.equal(fixture.server.requests.length, 0);
    assert.equal(repo.git(['branch', '--list', 'smith/*']), '');

    fixture.server.enqueue(DONE);
    await panel.client.request({ type: 'newTask', text: 'Backport the fix', worktree: true, worktreeName: 'backport', worktreeBase: 'release' });
    await panel.until(() => state().task?.status === 'completed', 'the task completes');
    const worktree = state().tasks!.find((task) => task.id === state().task!.id)!.worktree!;
    assert.equal(worktree.branch, 'smith/backport');
    assert.equal(worktree.base, 'release');
    assert.equal(existsSync(join(worktree.path, 'release.txt')), true, 'made from release');
    assert.equal(repo.git(['rev-parse', '--symbolic-full-name', 'smith/backport@{upstream}']).trim(), 'refs/heads/release');
    // A branch made meanwhile is listed when asked again; task branches are not bases.
    repo.git(['branch', 'hotfix']);
    await panel.client.request({ type: 'listBaseBranches' });
    await panel.until(() => state().baseBranches?.branches.includes('hotfix') === true, 'the new branch listed');
    assert.deepEqual(state().baseBranches, { branches: ['hotfix', 'main', 'release'], current: 'main' });
  });

  test('outside git the branch list says why', async () => {
    const panel = openPanelBackend(fixture, closers, { worktree: {} });
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    await panel.client.request({ type: 'listBaseBranches' });
    await panel.until(() => panel.page.state.panel!.baseBranches !== undefined, 'the answer');
    assert.deepEqual(panel.page.state.panel!.baseBranches!.branches, []);
    assert.match(panel.page.state.panel!.baseBranches!.problem ?? '', /is not in a git repository/);
  });
  test('Open pull request pushes the branch to origin and shows the page that opens it (gh not on PATH)', async () => {
    const repo = createGitRepo({ initialFiles: { 'README.md': 'Hello\n' } });
    closers.push(() => repo.dispose());
    const bare = join(repo.home, 'origin.git');
    repo.git(['init', '-q', '--bare', bare], repo.home);
    repo.git(['remote', 'add', 'origin', 'git@github.com:acme/shop.git']);
    repo.git(['config', 'remote.origin.pushurl', bare]);
    // PATH with git and nothing else: no gh, whatever the machine has installed.
    const bin = join(repo.home, 'bin');
    mkdirSync(bin);
    symlinkSync(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim(), join(bin, 'git'));
    const path = process.env.PATH;
    process.env.PATH = bin;
    closers.push(() => (process.env.PATH = path));
    const panel = openPanelBackend(fixture, closers, { cwd: repo.repo, worktree: { parent: join(repo.home, 'worktrees') }, autoApprove: { editFiles: true } });
    const state = () => panel.page.state.panel!;
    const listed = () => state().tasks?.find((task) => task.id === state().task?.id);
    await panel.until(() => panel.page.state.panel !== undefined, 'a snapshot');
    fixture.server.enqueue(WRITE, DONE);
    await panel.client.request({ type: 'newTask', text: 'Add feature.txt', worktree: true, worktreeName: 'pr-me' });
    await panel.until(() => state().task?.status === 'completed', 'the task completes');
    await panel.client.request({ type: 'worktreeAction', taskId: state().task!.id, action: 'pullRequest' });
    await panel.until(() => listed()?.worktree?.outcome === 'pull-request', 'the pull request step done');
    assert.equal(listed()!.worktree!.url, 'https://github.com/acme/shop/compare/main...smith/pr-me?expand=1');
    assert.equal(repo.git(['show', 'refs/heads/smith/pr-me:feature.txt'], bare), 'Feature\n');
    assert.ok(
      listed()!.worktree!.commands.some((line) => line.startsWith('git push origin refs/heads/smith/pr-me:refs/heads/smith/pr-me')),
      listed()!.worktree!.commands.join('\n'),
    );
    assert.ok(panel.notices.some((notice) => notice.includes('open the pull request here: https://github.com/acme/shop/compare/main...smith/pr-me?expand=1')));
  });
});
