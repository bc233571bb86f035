import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

/** Distance in px between the list's bottom edge and its content's end. */
const distanceFromEnd = (panel: PanelPage) =>
  panel.page.evaluate(() => {
    const list = document.querySelector('.message-list')!;
    return list.scrollHeight - list.scrollTop - list.clientHeight;
  });

describe('virtualised message list in Chromium', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('5,000 messages render only a window of rows, starting at the latest', async () => {
    const { page } = panel;
    const messages = (await page.evaluate('window.__host.sampleMessages(5000)')) as UiMessage[];
    await panel.send(snapshotOf(taskView(messages, { status: 'completed' })));
    await page.locator('.chat-row[data-index="4999"]').waitFor();
    const rows = await page.locator('.chat-row').count();
    assert.ok(rows > 0 && rows < 100, `expected a small window of rows, got ${rows}`);
    assert.ok((await distanceFromEnd(panel)) <= 32, 'opens at the bottom');

    // Scrolling to the top brings the first message in and keeps the window small.
    await page.evaluate(() => document.querySelector('.message-list')!.scrollTo(0, 0));
    await page.locator('.chat-row[data-index="0"]').getByText('Add input validation to the signup form').waitFor();
    const rowsAtTop = await page.locator('.chat-row').count();
    assert.ok(rowsAtTop < 100, `expected a small window of rows at the top, got ${rowsAtTop}`);
    assert.equal(await page.locator('.chat-row[data-index="4999"]').count(), 0);
    await page.getByRole('button', { name: 'Scroll to latest' }).click();
    await page.locator('.chat-row[data-index="4999"]').waitFor();
  });

  test('while streaming the list follows the tail, unless the user scrolled up', async () => {
    const { page } = panel;
    const messages = (await page.evaluate('window.__host.sampleMessages(300)')) as UiMessage[];
    await panel.send(snapshotOf(taskView(messages, { status: 'running' })));
    await page.locator('.chat-row[data-index="299"]').waitFor();

    let text = '';
    for (let i = 0; i < 30; i++) {
      text += `Line ${i} of a long streamed answer.\n\n`;
      await panel.send({ type: 'streaming', taskId: 'task-1', text, reasoning: '' });
    }
    await page.locator('.msg-assistant.streaming').getByText('Line 29 of a long streamed answer.').waitFor();
    await page.waitForFunction(() => {
      const list = document.querySelector('.message-list')!;
      return list.scrollHeight - list.scrollTop - list.clientHeight <= 32;
    });

    // The user scrolls up to read; more text must not pull the view down.
    await page.locator('.message-list').hover();
    await page.mouse.wheel(0, -1500);
    await page.waitForFunction(() => {
      const list = document.querySelector('.message-list')!;
      return list.scrollHeight - list.scrollTop - list.clientHeight > 500;
    });
    const scrollTop = await page.evaluate(() => document.querySelector('.message-list')!.scrollTop);
    for (let i = 30; i < 40; i++) {
      text += `Line ${i} of a long streamed answer.\n\n`;
      await panel.send({ type: 'streaming', taskId: 'task-1', text, reasoning: '' });
    }
    await page.waitForTimeout(200);
    const after = await page.evaluate(() => document.querySelector('.message-list')!.scrollTop);
    assert.ok(Math.abs(after - scrollTop) < 5, `view stayed put (was ${scrollTop}, now ${after})`);
    assert.ok((await distanceFromEnd(panel)) > 500);
    assert.ok(await page.getByRole('button', { name: 'Scroll to latest' }).isVisible());
  });

  test('a message appended at the bottom is followed', async () => {
    const { page } = panel;
    const messages = (await page.evaluate('window.__host.sampleMessages(200)')) as UiMessage[];
    await panel.send(snapshotOf(taskView(messages, { status: 'running' })));
    await page.locator('.chat-row[data-index="199"]').waitFor();
    await panel.send({ type: 'taskMessages', taskId: 'task-1', start: 200, messages: [{ kind: 'notice', id: 'new', text: 'Appended notice', ts: 1 }] });
    await page.getByText('Appended notice').waitFor();
    await page.waitForFunction(() => {
      const list = document.querySelector('.message-list')!;
      return list.scrollHeight - list.scrollTop - list.clientHeight <= 32;
    });
  });
});
