// Two tasks at once in the real VS Code workbench with the PACKAGED extension: task A waits for the
// approval of its edit, task B is started beside it (New Task) and finishes, the task list shows
// both; switching back to A shows its approval, naming it, and approving it lets A finish too.
// Screenshots: .test-artifacts/e2e/parallel-tasks-*.png.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { conversationRouter } from '../helpers/conversation-router';
import { useScriptedWorkbench } from '../helpers/scripted-workbench';

const UI_TIMEOUT = 60_000;
const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe('Two tasks at once in the real VS Code workbench (packaged .vsix)', { timeout: 600_000 }, () => {
  const session = useScriptedWorkbench('parallel', {
    prepare: ({ workspace }) => void workspace.write('notes.txt', 'Remember the milk.\n'),
    settings: { 'smith.autoApprove.editFiles': false },
  });

  it('A waits for approval while B runs and finishes; back in A, the approval names it and A finishes', async () => {
    const { workbench, llm, workspace } = session;
    await workbench.openViewContainer('Smith');
    const panel = workbench.webviewFrame();
    const box = panel.getByRole('textbox', { name: 'Task' });
    await box.waitFor({ timeout: UI_TIMEOUT });
    // Each task's requests get the replies of its own conversation, whatever the order they come in.
    const router = conversationRouter({
      'TASK-A': [{ text: '<write_to_file>\n<path>a.txt</path>\n<content>\nAlpha\n</content>\n</write_to_file>' }, done('Wrote a.txt.')],
      'TASK-B': [{ text: '<read_file>\n<path>notes.txt</path>\n</read_file>' }, done('The notes say to remember the milk.')],
    });
    llm.enqueue(...router.replies());

    await box.fill('TASK-A: write a.txt');
    await panel.getByRole('button', { name: 'Send' }).click();
    const approval = panel.getByRole('region', { name: 'Approval needed' });
    await approval.locator('.approval-path').filter({ hasText: 'a.txt' }).waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('parallel-tasks-1-a-waits');

    // A new task while A waits: A is not stopped, and the list shows it waiting.
    await workbench.page.locator('.part.sidebar').getByRole('button', { name: 'New Task', exact: true }).click();
    const list = panel.getByRole('navigation', { name: 'Tasks' });
    await list.getByRole('button', { name: 'TASK-A: write a.txt: Waiting for approval' }).waitFor({ timeout: UI_TIMEOUT });
    await box.fill('TASK-B: read notes.txt');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.locator('.completion-card').getByText('The notes say to remember the milk.').waitFor({ timeout: UI_TIMEOUT });
    await list.getByRole('button', { name: 'TASK-B: read notes.txt: Done' }).waitFor({ timeout: UI_TIMEOUT });
    assert.equal((await list.locator('.task-badge').textContent())?.trim(), 'Waiting for approval', "A's badge");
    assert.equal(existsSync(join(workspace.root, 'a.txt')), false, 'A wrote before its approval');
    await workbench.screenshot('parallel-tasks-2-b-done');

    // Back to A: its approval is there, naming it; approved, A finishes.
    await list.getByRole('button', { name: 'TASK-A: write a.txt: Waiting for approval' }).click();
    const approvalA = panel.getByRole('region', { name: 'Approval needed: TASK-A: write a.txt' });
    await approvalA.waitFor({ timeout: UI_TIMEOUT });
    await approvalA.getByRole('button', { name: 'Approve', exact: true }).click();
    await panel.locator('.completion-card').getByText('Wrote a.txt.').waitFor({ timeout: UI_TIMEOUT });
    assert.equal(workspace.read('a.txt'), 'Alpha\n');
    await list.getByRole('button', { name: 'TASK-A: write a.txt: Done' }).waitFor({ timeout: UI_TIMEOUT });
    await list.getByRole('button', { name: 'TASK-B: read notes.txt: Done' }).waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('parallel-tasks-3-both-done');
    assert.deepEqual(await panel.locator('.error-card').allTextContents(), []);
  });
});
