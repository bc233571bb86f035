// A task in a new git worktree in the real VS Code workbench with the PACKAGED extension: started
// from History → New task… (a worktree, its base chosen), the scripted model edits two files there,
// the edit is approved, Review changes opens VS Code's multi-file diff of both against the base,
// Merge brings the work into main (the workspace's checkout), and Discard removes the worktree
// and its branch. Real git in a temporary repository. Screenshots: .test-artifacts/e2e/worktree-flow-*.png.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { useScriptedWorkbench } from '../helpers/scripted-workbench';

const UI_TIMEOUT = 60_000;

/** git in `cwd`, without the GIT_* variables of whatever started the tests. */
function git(cwd: string, ...args: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')));
  return execFileSync('git', args, { cwd, env, encoding: 'utf8' });
}

describe('A task in a new worktree in the real VS Code workbench (packaged .vsix)', { timeout: 600_000 }, () => {
  let worktrees = '';
  const session = useScriptedWorkbench('worktree', {
    prepare: ({ workspace, storage }) => {
      // The worktrees go in the suite's own temp folder, removed with it.
      worktrees = join(storage.root, 'worktrees');
      workspace.write('app.txt', 'line 1\nline 2\n');
      workspace.write('notes.md', '# Notes\n');
      git(workspace.root, 'init', '-q', '-b', 'main');
      git(workspace.root, 'config', 'user.email', 'test@example.com');
      git(workspace.root, 'config', 'user.name', 'Test');
      git(workspace.root, 'config', 'commit.gpgsign', 'false');
      git(workspace.root, 'add', '--all');
      git(workspace.root, 'commit', '-q', '-m', 'First');
      // Another local branch: the base list offers it, the checked-out one is chosen.
      git(workspace.root, 'branch', 'develop');
    },
    settings: () => ({ 'smith.autoApprove.editFiles': false, 'smith.worktree.parent': worktrees }),
  });

  it('New task… in a worktree, approve, Review changes (multi-file diff), Merge into main, Discard', async () => {
    const { workbench, llm, workspace } = session;
    const tree = join(worktrees, basename(workspace.root), 'feature');
    await workbench.openViewContainer('Smith');
    const panel = workbench.webviewFrame();
    await panel.getByRole('textbox', { name: 'Task' }).waitFor({ timeout: UI_TIMEOUT });
    llm.enqueue(
      {
        text: '<replace_in_file>\n<path>app.txt</path>\n<diff>\n------- SEARCH\nline 2\n=======\nline 2 changed\n+++++++ REPLACE\n</diff>\n</replace_in_file>',
      },
      { text: '<write_to_file>\n<path>docs/feature.md</path>\n<content>\nThe feature.\n</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>Changed app.txt and documented it.</result>\n</attempt_completion>' },
    );

    await workbench.page.locator('.part.sidebar').getByRole('button', { name: 'Task History', exact: true }).click();
    await panel.getByRole('heading', { name: 'History' }).waitFor({ timeout: UI_TIMEOUT });
    await panel.getByRole('button', { name: 'New task…' }).click();
    const form = panel.getByRole('form', { name: 'New task' });
    await form.getByRole('textbox', { name: 'New task text' }).fill('Change line 2 and document it');
    await form.getByRole('radio', { name: 'In a new worktree' }).check();
    await form.getByRole('textbox', { name: 'Worktree name (optional)' }).fill('feature');
    const base = form.getByRole('combobox', { name: 'Base branch' });
    await base.waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await base.inputValue(), 'main');
    assert.deepEqual(await base.locator('option').allTextContents(), ['develop', 'main (checked out)']);
    await workbench.screenshot('worktree-flow-1-new-task');
    await form.getByRole('button', { name: 'Start task' }).click();

    // The chat shows the task; each edit waits for its approval, and it happens in the worktree.
    for (const path of ['app.txt', 'docs/feature.md']) {
      const approval = panel.getByRole('region', { name: /^Approval needed/ });
      await approval.locator('.approval-path').filter({ hasText: path }).waitFor({ timeout: UI_TIMEOUT });
      await approval.getByRole('button', { name: 'Approve', exact: true }).click();
    }
    await panel.locator('.completion-card').getByText('Changed app.txt and documented it.').waitFor({ timeout: UI_TIMEOUT });
    assert.equal(git(tree, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'smith/feature');
    assert.equal(git(tree, 'show', 'HEAD:app.txt'), 'line 1\nline 2\n', 'nothing committed yet');
    assert.equal(workspace.read('app.txt'), 'line 1\nline 2\n', 'the workspace is untouched');
    assert.equal(existsSync(join(workspace.root, 'docs', 'feature.md')), false);
    const bar = panel.getByRole('region', { name: 'Worktree' });
    await bar.getByText('smith/feature', { exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('worktree-flow-2-done');

    // Review changes: VS Code's multi-file diff, both files against main.
    await bar.getByRole('button', { name: 'Review changes' }).click();
    const review = workbench.page.locator('.tabs-container .tab').filter({ hasText: 'smith/feature against main (2 files)' });
    await review.waitFor({ timeout: UI_TIMEOUT });
    const editor = workbench.page.locator('.multiDiffEditor');
    await editor.waitFor({ timeout: UI_TIMEOUT });
    for (const name of ['app.txt', 'feature.md']) await editor.getByText(name, { exact: true }).first().waitFor({ timeout: UI_TIMEOUT });
    await editor.getByText('line 2 changed').first().waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('worktree-flow-3-review');

    // Merge: the task's work, committed with its title, is on main in the workspace.
    await bar.getByRole('button', { name: 'Merge', exact: true }).click();
    await bar
      .getByRole('status')
      .getByText(/merged/i)
      .waitFor({ timeout: UI_TIMEOUT });
    assert.equal(git(workspace.root, 'show', 'main:app.txt'), 'line 1\nline 2 changed\n');
    assert.equal(git(workspace.root, 'show', 'main:docs/feature.md'), 'The feature.\n');
    assert.equal(workspace.read('app.txt'), 'line 1\nline 2 changed\n');
    assert.match(git(workspace.root, 'log', '--format=%s', 'main'), /Change line 2 and document it/);
    assert.equal(git(workspace.root, 'status', '--porcelain'), '');

    // Discard: merged, so nothing is lost and nothing is asked; the worktree and the branch are gone.
    await bar.getByRole('button', { name: 'Discard' }).click();
    await bar
      .getByRole('status')
      .getByText(/discarded/i)
      .waitFor({ timeout: UI_TIMEOUT });
    assert.equal(existsSync(tree), false, 'the worktree folder is gone');
    assert.equal(git(workspace.root, 'branch', '--list', 'smith/*'), '');
    assert.ok(!git(workspace.root, 'worktree', 'list').includes(tree));
    await workbench.screenshot('worktree-flow-4-merged');
    assert.deepEqual(await panel.locator('.error-card').allTextContents(), []);
  });
});
