// Talking to a working agent in the panel (real bundle, Chromium): while Smith works, Enter queues
// a message and Ctrl+Enter (or Now) sends it at once; queued messages can be changed or removed.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const messages: UiMessage[] = [{ kind: 'task', id: 'e0', seq: 0, text: 'Refactor the parser', ts }];

describe('queue and steer in the chat panel', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('while Smith works, Enter queues and Ctrl+Enter or Now sends at once', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView(messages, { status: 'running' })));
    const box = page.getByRole('textbox', { name: 'Task' });
    await box.waitFor();
    assert.match((await box.getAttribute('placeholder')) ?? '', /Enter queues/);
    await box.fill('Also update the docs');
    await box.press('Enter');
    assert.equal((await panel.waitForPosted('sendMessage')).text, 'Also update the docs');
    await box.fill('Stop: keep the public API');
    await box.press('Control+Enter');
    assert.equal((await panel.waitForPosted('steerMessage')).text, 'Stop: keep the public API');
    await box.fill('And the changelog');
    await page.getByRole('button', { name: 'Send now' }).click();
    assert.equal((await panel.waitForPosted('steerMessage')).text, 'And the changelog');
    assert.equal(await page.getByRole('button', { name: 'Queue' }).count(), 1);
  });

  test('queued messages are listed; each can be edited or removed, naming the text it had', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView(messages, { status: 'running', queued: ['Also update the docs', 'And the changelog'] })));
    const list = page.getByRole('list', { name: 'Queued messages' });
    await list.waitFor();
    assert.deepEqual(await list.locator('.queued-text').allTextContents(), ['Also update the docs', 'And the changelog']);

    await list.getByRole('button', { name: 'Remove queued message' }).nth(1).click();
    const removed = await panel.waitForPosted('updateQueued');
    assert.deepEqual([removed.index, removed.was, removed.text], [1, 'And the changelog', undefined]);

    await list.getByRole('button', { name: 'Edit queued message' }).first().click();
    const edit = list.getByRole('textbox', { name: 'Edit queued message' });
    await edit.fill('Also update the README');
    await edit.press('Enter');
    const edited = await panel.waitForPosted('updateQueued');
    assert.deepEqual([edited.index, edited.was, edited.text], [0, 'Also update the docs', 'Also update the README']);

    // Once delivered, the queue is gone from the panel.
    await panel.send(snapshotOf(taskView(messages, { status: 'running' })));
    await list.waitFor({ state: 'detached' });
  });
});
