import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

/** A long chat: 600 messages of varied heights (short notices, multi-line user messages). */
const whole: UiMessage[] = Array.from({ length: 600 }, (_, i) =>
  i % 7 === 0
    ? { kind: 'user', id: `m${i}`, seq: i, text: `Message ${i}\n\n${'A longer line of the user message. '.repeat(1 + (i % 5))}`, ts: i }
    : { kind: 'notice', id: `m${i}`, text: `Message ${i}`, ts: i },
);
const PAGE = 50;

/** Where the row showing `Message n` sits on the screen (its top, px), or undefined when it is not rendered. */
const rowTop = (panel: PanelPage, n: number) =>
  panel.page.evaluate((text) => {
    for (const row of document.querySelectorAll('.chat-row')) {
      if (row.textContent?.startsWith(text) || row.textContent?.includes(`${text}\n`) || row.textContent?.trim() === text)
        return row.getBoundingClientRect().top;
    }
    return undefined;
  }, `Message ${n}`);

/** The list's scroll offset once it has come to rest (the same over 5 frames). */
const restingScrollTop = (panel: PanelPage) =>
  panel.page.evaluate(`new Promise((resolve) => {
    const list = document.querySelector('.message-list');
    let last = list.scrollTop;
    let still = 0;
    const check = () => {
      still = list.scrollTop === last ? still + 1 : 0;
      last = list.scrollTop;
      if (still >= 5) resolve(last);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })`) as Promise<number>;

describe('a long chat paged in as the user scrolls up, in Chromium', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('scrolling to the top asks for each older page once, keeps the reader’s row in place, and ends at the first message', async () => {
    const { page } = panel;
    await page.evaluate('window.__host.replies = "manual"');
    await panel.send(snapshotOf(taskView(whole.slice(-PAGE), { status: 'completed', messagesFrom: whole.length - PAGE })));
    await page.getByText('Message 599', { exact: true }).waitFor();

    let first = whole.length - PAGE;
    const asked: string[] = [];
    while (first > 0) {
      // The user scrolls to the top of what is loaded.
      await page.evaluate(() => document.querySelector('.message-list')!.scrollTo(0, 0));
      const request = await panel.waitForPosted('olderMessages');
      asked.push(request.before);
      assert.equal(request.before, `m${first}`, 'asks for the page before the first message it holds');
      assert.equal(request.taskId, 'task-1');
      await restingScrollTop(panel);
      const topBefore = await rowTop(panel, first);
      assert.notEqual(topBefore, undefined, `Message ${first} is on screen`);

      const start = Math.max(0, first - PAGE);
      await panel.send({ type: 'olderMessages', taskId: 'task-1', before: request.before, start, messages: whole.slice(start, first) });
      await page.evaluate((id) => (window as unknown as { __host: { reply(id: string): void } }).__host.reply(id), request.id);
      await restingScrollTop(panel);
      // The page went in above: the row the reader was looking at did not move.
      const topAfter = await rowTop(panel, first);
      assert.ok(topAfter !== undefined && Math.abs(topAfter - topBefore!) <= 2, `Message ${first} stayed at ${topBefore}px (now ${topAfter}px)`);
      assert.ok((await page.evaluate(() => document.querySelector('.message-list')!.scrollTop)) > 0, 'the new page lies above the view');
      first = start;
    }
    await page.evaluate(() => document.querySelector('.message-list')!.scrollTo(0, 0));
    await page.locator('.chat-row[data-index="0"]').getByText('Message 0', { exact: false }).first().waitFor();
    // Once per page, never twice for the same message, and nothing more once the first message is in.
    assert.deepEqual(asked, ['m550', 'm500', 'm450', 'm400', 'm350', 'm300', 'm250', 'm200', 'm150', 'm100', 'm50']);
    await page.waitForTimeout(200);
    const requests = (await panel.posted()).filter((m) => m.type === 'olderMessages');
    assert.equal(requests.length, asked.length);

    // Every message is in the list once, in order: the rows' indices run 0 … 599.
    const texts = (await page.evaluate(() => {
      const list = document.querySelector('.message-list')!;
      const seen = new Map<number, string>();
      for (let top = 0; top <= list.scrollHeight; top += list.clientHeight / 2) {
        list.scrollTop = top;
        list.dispatchEvent(new Event('scroll'));
        for (const row of document.querySelectorAll('.chat-row')) seen.set(Number(row.getAttribute('data-index')), row.textContent ?? '');
      }
      return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([index, text]) => [index, text.match(/Message \d+/)?.[0]]);
    })) as Array<[number, string]>;
    assert.ok(texts.length > 0);
    for (const [index, text] of texts) assert.equal(text, `Message ${index}`);

    // Jump to latest still brings the newest message back from the top.
    await page.evaluate(() => document.querySelector('.message-list')!.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Jump to latest' }).click();
    await page.getByText('Message 599', { exact: true }).waitFor();
  });

  test('a task whose log had unreadable lines says so above the chat', async () => {
    await panel.send(
      snapshotOf(
        taskView(whole.slice(-10), {
          status: 'completed',
          messagesFrom: whole.length - 10,
          problems: ['Line 41 of the log could not be read and is left out (Unexpected end of JSON input).'],
        }),
      ),
    );
    await panel.page.getByRole('status').getByText("Part of this task's log could not be read.").waitFor();
    await panel.page.getByText('Line 41 of the log could not be read and is left out').waitFor();
  });
});
