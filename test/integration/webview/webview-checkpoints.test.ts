// Checkpoints in the chat panel (real bundle, Chromium): markers with Compare and the three
// Restore choices, editing a sent message, and the checkpoint storage in the history.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { until } from '../../helpers/until.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const MESSAGES: UiMessage[] = [
  { kind: 'task', id: 'e0', seq: 0, text: 'Add a greeting', ts },
  { kind: 'checkpoint', id: 'e2', checkpointId: '0', changed: [], changedCount: 0, skipped: [], ts },
  { kind: 'tool', id: 'e4', callId: 'c1', tool: 'write_to_file', params: { path: 'hello.txt', content: 'Hi' }, status: 'done', ts },
  { kind: 'checkpoint', id: 'e6', checkpointId: '1', changed: ['hello.txt'], changedCount: 1, skipped: [{ path: 'big.bin', reason: 'larger than 5 MB' }], ts },
  { kind: 'user', id: 'e8', seq: 8, text: 'Now say it to the world', ts },
];

describe('checkpoints in the chat panel', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('a marker per checkpoint; Compare and the three Restore choices post their requests', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView(MESSAGES, { status: 'completed' })));
    const first = page.locator('.checkpoint[data-checkpoint="0"]');
    const second = page.locator('.checkpoint[data-checkpoint="1"]');
    await second.waitFor();
    assert.match((await first.textContent()) ?? '', /Checkpoint 0\W+the workspace as the task found it/);
    assert.match((await second.textContent()) ?? '', /Checkpoint 1\W+hello\.txt/);
    assert.equal(await second.locator('.checkpoint-skipped').getAttribute('title'), 'big.bin: larger than 5 MB');

    await second.getByRole('button', { name: 'Compare' }).click();
    const compare = await panel.waitForPosted('compareCheckpoint');
    assert.deepEqual([compare.taskId, compare.checkpointId], ['task-1', '1']);

    const scopes: string[] = [];
    for (const [label, scope] of [
      ['Files and conversation', 'both'],
      ['Files only', 'files'],
      ['Conversation only', 'conversation'],
    ] as const) {
      await first.getByRole('button', { name: 'Restore' }).click();
      await first.getByRole('group', { name: 'Restore checkpoint 0' }).getByRole('button', { name: label }).click();
      const posted = await panel.waitForPosted('restoreCheckpoint');
      assert.equal(posted.checkpointId, '0');
      assert.equal(posted.scope, scope, label);
      scopes.push(posted.scope);
      assert.equal(await first.getByRole('group').count(), 0, 'the choices close after a choice');
    }
    assert.deepEqual(scopes, ['both', 'files', 'conversation']);
  });

  test('the first checkpoint offers Bisect…, which posts the task; later ones do not, and not while Smith works', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView(MESSAGES, { status: 'completed' })));
    const first = page.locator('.checkpoint[data-checkpoint="0"]');
    await first.waitFor();
    assert.equal(await page.locator('.checkpoint[data-checkpoint="1"]').getByRole('button', { name: 'Bisect…' }).count(), 0);
    await first.getByRole('button', { name: 'Bisect…' }).click();
    const posted = await panel.waitForPosted('bisectTask');
    assert.equal(posted.taskId, 'task-1');

    await panel.send(snapshotOf(taskView(MESSAGES, { status: 'running' })));
    await until(async () => await first.getByRole('button', { name: 'Bisect…' }).isDisabled(), 'Bisect… disabled while Smith works');
  });

  test('while Smith works, Compare, Restore and Edit are not offered', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView(MESSAGES, { status: 'running' })));
    const marker = page.locator('.checkpoint[data-checkpoint="1"]');
    await marker.waitFor();
    assert.equal(await marker.getByRole('button', { name: 'Compare' }).isDisabled(), true);
    assert.equal(await marker.getByRole('button', { name: 'Restore' }).isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: 'Edit and run again from here' }).count(), 0);
  });

  test('editing a sent message posts the new text, its position and whether to restore the files', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView(MESSAGES, { status: 'completed' })));
    const message = page.locator('.msg-user');
    await message.hover();
    await message.getByRole('button', { name: 'Edit and run again from here' }).click();
    const box = message.getByRole('textbox', { name: 'Edited message' });
    assert.equal(await box.inputValue(), 'Now say it to the world');
    await box.fill('Now say it to the moon');
    await message.getByRole('checkbox').uncheck();
    await message.getByRole('button', { name: 'Run again' }).click();
    const posted = await panel.waitForPosted('editMessage');
    assert.equal(posted.taskId, 'task-1');
    assert.equal(posted.seq, 8);
    assert.equal(posted.text, 'Now say it to the moon');
    assert.equal(posted.restoreFiles, false);

    // Escape leaves the message as it was.
    await page.locator('.msg-task').hover();
    await page.locator('.msg-task').getByRole('button', { name: 'Edit and run again from here' }).click();
    await page.locator('.msg-task').getByRole('textbox', { name: 'Edited message' }).press('Escape');
    assert.equal(await page.locator('.msg-task').getByRole('textbox').count(), 0);
  });

  test('the history shows how much checkpoint storage each task takes', async () => {
    const { page } = panel;
    await panel.send(
      snapshotOf(undefined, {
        view: 'history',
        history: [
          { taskId: 'a', task: 'With checkpoints', startedAt: ts, updatedAt: ts, status: 'completed', checkpointBytes: 12_800 },
          { taskId: 'b', task: 'Without', startedAt: ts, updatedAt: ts - 1, status: 'completed' },
        ],
      }),
    );
    const items = page.locator('.history-item');
    await items.first().waitFor();
    assert.match((await items.nth(0).textContent()) ?? '', /12\.5 KB of checkpoints/);
    assert.doesNotMatch((await items.nth(1).textContent()) ?? '', /of checkpoints/);
  });

  test('the history sorts by date or by cost and shows what each task cost', async () => {
    const { page } = panel;
    await panel.send(
      snapshotOf(undefined, {
        view: 'history',
        history: [
          { taskId: 'a', task: 'Cheap and recent', startedAt: ts, updatedAt: ts + 3, status: 'completed', cost: 0.01 },
          { taskId: 'b', task: 'Costly and old', startedAt: ts, updatedAt: ts + 1, status: 'completed', cost: 1.25 },
          { taskId: 'c', task: 'Price unknown', startedAt: ts, updatedAt: ts + 2, status: 'failed' },
        ],
      }),
    );
    const titles = () => page.locator('.history-text').allTextContents();
    await page.locator('.history-item').first().waitFor();
    assert.deepEqual(await titles(), ['Cheap and recent', 'Price unknown', 'Costly and old']);
    await page.getByRole('combobox', { name: 'Sort history' }).selectOption('costliest');
    assert.deepEqual(await titles(), ['Costly and old', 'Cheap and recent', 'Price unknown']);
    await page.getByRole('combobox', { name: 'Sort history' }).selectOption('oldest');
    assert.deepEqual(await titles(), ['Costly and old', 'Price unknown', 'Cheap and recent']);
    assert.match((await page.locator('.history-item').first().textContent()) ?? '', /\$1\.2500/);
    await page.getByRole('searchbox', { name: 'Filter history' }).fill('price');
    assert.deepEqual(await titles(), ['Price unknown']);
  });
});
