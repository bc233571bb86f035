// The todo list pinned above the chat (real bundle, Chromium): shown as the model keeps it, and
// edited by the user (a status click, or the whole list as a checklist).
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { TodoItem } from '../../../src/shared/todo-items.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const todos: TodoItem[] = [
  { text: 'Read the parser', status: 'completed' },
  { text: 'Add the failing test', status: 'in_progress' },
  { text: 'Fix the bug', status: 'pending' },
];

describe('the todo list in the chat panel', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('pinned above the chat with progress; a status click and a checklist edit post the new list', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([{ kind: 'task', id: 'e0', seq: 0, text: 'Fix the parser bug', ts }], { todos, status: 'running' })));
    const list = page.getByRole('region', { name: 'Todo list' });
    await list.waitFor();
    assert.match((await list.locator('.todo-toggle').textContent()) ?? '', /Todo 1\/3/);
    assert.deepEqual(await list.locator('.todo-text').allTextContents(), ['Read the parser', 'Add the failing test', 'Fix the bug']);
    // It sits above the conversation, not inside it.
    const [listBox, chatBox] = await Promise.all([list.boundingBox(), page.getByRole('log', { name: 'Conversation' }).boundingBox()]);
    assert.ok(listBox && chatBox && listBox.y < chatBox.y);

    await list.getByRole('button', { name: 'Fix the bug: to do' }).click();
    const cycled = await panel.waitForPosted('editTodos');
    assert.deepEqual(
      cycled.items.map((i) => i.status),
      ['completed', 'in_progress', 'in_progress'],
    );

    await list.getByRole('button', { name: 'Edit the todo list' }).click();
    const box = list.getByRole('textbox', { name: 'Todo list as a checklist' });
    assert.equal(await box.inputValue(), '- [x] Read the parser\n- [-] Add the failing test\n- [ ] Fix the bug');
    await box.fill('- [x] Read the parser\n- [x] Add the failing test\n- [-] Fix the bug\n- [ ] Update the changelog');
    await list.getByRole('button', { name: 'Save' }).click();
    const edited = await panel.waitForPosted('editTodos');
    assert.deepEqual(edited.items, [
      { text: 'Read the parser', status: 'completed' },
      { text: 'Add the failing test', status: 'completed' },
      { text: 'Fix the bug', status: 'in_progress' },
      { text: 'Update the changelog', status: 'pending' },
    ]);

    // Folded, it names the item in progress.
    await list.locator('.todo-toggle').click();
    assert.equal(await list.locator('.todo-current').textContent(), 'Add the failing test');
  });

  test('no list, no panel', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([{ kind: 'task', id: 'e0', seq: 0, text: 'Say hi', ts }])));
    await page.getByText('Say hi').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Todo list' }).count(), 0);
  });
});
