// The task list of the chat (real bundle, Chromium): several tasks with their state and cost, the
// total, switching without stopping, a badge for a task waiting for approval, Stop and Close per
// task, and requests that name the task they are about.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { LiveTask, PendingApproval } from '../../../src/shared/protocol.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const messages: UiMessage[] = [{ kind: 'task', id: 'e0', seq: 0, text: 'Fix the login', ts }];
const tasks: LiveTask[] = [
  { id: 'task-1', title: 'Fix the login', status: 'running', cost: 0.012 },
  { id: 'task-2', title: 'Write the docs', status: 'awaiting_approval', cost: 0.0305 },
  { id: 'task-3', title: 'Rename the module', status: 'completed' },
];
const approval: PendingApproval = { callId: 'call-7', tool: 'execute_command', summary: 'Run npm test', command: 'npm test' };

describe('the task list in the chat panel', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('lists each task with its state and cost and the total; the shown one is marked; a waiting one has a badge', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView(messages, { status: 'running' }), { tasks }));
    const list = page.getByRole('navigation', { name: 'Tasks' });
    await list.waitFor();
    const entries = list.getByRole('button', { name: /: (Working|Waiting for approval|Done)/ });
    assert.deepEqual(await entries.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label'))), [
      'Fix the login: Working, $0.0120',
      'Write the docs: Waiting for approval, $0.0305',
      'Rename the module: Done',
    ]);
    assert.equal(await list.getByRole('button', { name: /^Fix the login/ }).getAttribute('aria-current'), 'true');
    assert.equal(await list.getByRole('button', { name: /^Write the docs/ }).getAttribute('aria-current'), null);
    assert.equal((await list.locator('.task-badge').textContent())?.trim(), 'Waiting for approval');
    assert.match((await list.locator('.task-list-head').textContent()) ?? '', /3 tasks, 2 running\s*Total \$0\.0425/);
    // Stop only for a task that runs; Close for each.
    assert.equal(await list.getByRole('button', { name: 'Stop task: Rename the module' }).count(), 0);
    assert.equal(await list.getByRole('button', { name: /^Close task: / }).count(), 3);
  });

  test('switching asks for the task by id; Stop and Close name their task', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView(messages, { status: 'running' }), { tasks }));
    const list = page.getByRole('navigation', { name: 'Tasks' });
    await list.getByRole('button', { name: /^Write the docs/ }).click();
    assert.equal((await panel.waitForPosted('openTask')).taskId, 'task-2');
    await list.getByRole('button', { name: 'Stop task: Write the docs' }).click();
    assert.equal((await panel.waitForPosted('cancelTask')).taskId, 'task-2');
    await list.getByRole('button', { name: 'Close task: Rename the module' }).click();
    assert.equal((await panel.waitForPosted('closeTask')).taskId, 'task-3');
    // Clicking the shown task asks for nothing.
    await list.getByRole('button', { name: /^Fix the login/ }).click();
    assert.equal((await panel.posted()).filter((m) => m.type === 'openTask').length, 1);
  });

  test('the approval card names its task, and the decision and messages carry the task id', async () => {
    const { page } = panel;
    const shown = taskView(messages, { id: 'task-2', status: 'awaiting_approval', pendingApproval: approval });
    await panel.send(snapshotOf(shown, { tasks }));
    const bar = page.getByRole('region', { name: 'Approval needed: Write the docs' });
    await bar.waitFor();
    assert.match((await bar.textContent()) ?? '', /Task: Write the docs/);
    await bar.getByRole('button', { name: 'Approve' }).click();
    const approve = await panel.waitForPosted('approve');
    assert.deepEqual([approve.callId, approve.taskId], ['call-7', 'task-2']);
    await panel.send(snapshotOf({ ...shown, status: 'running', pendingApproval: undefined }, { tasks }));
    const box = page.getByRole('textbox', { name: 'Task' });
    await box.fill('Also the changelog');
    await box.press('Enter');
    const sent = await panel.waitForPosted('sendMessage');
    assert.deepEqual([sent.text, sent.taskId], ['Also the changelog', 'task-2']);
  });

  test('one task, shown: no list; the list follows liveTasks between snapshots', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView(messages, { status: 'running' }), { tasks: [tasks[0]!] }));
    await page.getByRole('textbox', { name: 'Task' }).waitFor();
    const list = page.getByRole('navigation', { name: 'Tasks' });
    assert.equal(await list.count(), 0);
    await panel.send({ type: 'liveTasks', tasks: [tasks[0]!, { id: 'task-9', title: 'Bump the version', status: 'awaiting_answer' }] });
    await list.waitFor();
    assert.match((await list.textContent()) ?? '', /Bump the version\s*Waiting for an answer/);
    // The approval bar of a single task names no task.
    await panel.send(snapshotOf(taskView(messages, { status: 'awaiting_approval', pendingApproval: approval })));
    await page.getByRole('region', { name: 'Approval needed' }).waitFor();
    assert.equal(await list.count(), 0);
    assert.equal(await page.locator('.approval-task').count(), 0);
  });
});

describe('worktree tasks in the chat panel', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  const worktreeTask: LiveTask = {
    id: 'task-1',
    title: 'Fix the login',
    status: 'completed',
    worktree: {
      name: 'fix-the-login',
      branch: 'smith/fix-the-login',
      base: 'main',
      path: '/work/.smith-worktrees/project/fix-the-login',
      commands: ['git worktree add --track -b smith/fix-the-login -- /work/.smith-worktrees/project/fix-the-login main  (in /work/project)'],
    },
  };

  test('Start in new worktree starts the typed task with worktree set; plain Send does not', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(undefined));
    const box = page.getByRole('textbox', { name: 'Task' });
    await box.fill('Fix the login');
    // Its label must not contain "Send": people (and tests) find Send by that name alone.
    assert.equal(await page.getByRole('button', { name: 'Send' }).count(), 1);
    await page.getByRole('button', { name: 'Start in new worktree' }).click();
    const sent = await panel.waitForPosted('newTask');
    assert.deepEqual([sent.text, sent.worktree], ['Fix the login', true]);
    await box.fill('Write the docs');
    await box.press('Enter');
    const plain = await panel.waitForPosted('newTask');
    assert.deepEqual([plain.text, plain.worktree], ['Write the docs', undefined]);
    // Only a new task can go to a worktree: not while a task is shown.
    await panel.send(snapshotOf(taskView(messages, { status: 'running' })));
    await page.getByRole('button', { name: 'Queue' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Start in new worktree' }).count(), 0);
  });

  test('a finished worktree task shows its branch, the git commands and its actions, each naming the task', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView(messages, { status: 'completed' }), { tasks: [worktreeTask] }));
    const bar = page.getByRole('region', { name: 'Worktree' });
    await bar.waitFor();
    assert.match((await bar.textContent()) ?? '', /smith\/fix-the-login\s*from main/);
    assert.deepEqual(await bar.getByRole('list', { name: 'Git commands' }).getByRole('listitem').allTextContents(), [worktreeTask.worktree!.commands[0]]);
    const actions = bar.getByRole('group', { name: 'Worktree actions' });
    assert.deepEqual(
      (await actions.getByRole('button').allTextContents()).map((label) => label.trim()),
      ['Review changes', 'Merge', 'Open pull request', 'Keep branch', 'Discard'],
    );
    for (const [label, action] of [
      ['Review changes', 'review'],
      ['Merge', 'merge'],
      ['Discard', 'discard'],
    ] as const) {
      await actions.getByRole('button', { name: label }).click();
      const sent = await panel.waitForPosted('worktreeAction');
      assert.deepEqual([sent.taskId, sent.action], ['task-1', action]);
      await panel.send({ type: 'reply', id: sent.id, ok: true });
    }
    // While it runs only Review is offered; once discarded, nothing.
    await panel.send(snapshotOf(taskView(messages, { status: 'running' }), { tasks: [{ ...worktreeTask, status: 'running' }] }));
    await actions.getByRole('button', { name: 'Merge' }).and(page.locator(':disabled')).waitFor();
    assert.equal(await actions.getByRole('button', { name: 'Review changes' }).isEnabled(), true);
    await panel.send(
      snapshotOf(taskView(messages, { status: 'completed' }), { tasks: [{ ...worktreeTask, worktree: { ...worktreeTask.worktree!, outcome: 'discarded' } }] }),
    );
    await bar.getByRole('status').filter({ hasText: 'Discarded' }).waitFor();
    assert.equal(await actions.getByRole('button', { name: 'Review changes' }).isEnabled(), false);
  });
});
