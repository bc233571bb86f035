import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { ToolFacts } from '../../../src/shared/tool-details.js';
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
    await page.getByRole('button', { name: 'Jump to latest' }).click();
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
    // The wheel scrolls smoothly: take the position once it has come to rest (same over 5 frames).
    // (A string: tsx would wrap a named inner function in a helper the page does not have.)
    const scrollTop = (await page.evaluate(`new Promise((resolve) => {
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
    })`)) as number;
    for (let i = 30; i < 40; i++) {
      text += `Line ${i} of a long streamed answer.\n\n`;
      await panel.send({ type: 'streaming', taskId: 'task-1', text, reasoning: '' });
    }
    await page.waitForTimeout(200);
    const after = await page.evaluate(() => document.querySelector('.message-list')!.scrollTop);
    assert.ok(Math.abs(after - scrollTop) < 5, `view stayed put (was ${scrollTop}, now ${after})`);
    assert.ok((await distanceFromEnd(panel)) > 500);
    assert.ok(await page.getByRole('button', { name: 'Jump to latest' }).isVisible());
  });

  test('after scrolling up, a chat that shrinks to fit (a rewind) stops offering Jump to latest', async () => {
    const { page } = panel;
    const messages = (await page.evaluate('window.__host.sampleMessages(200)')) as UiMessage[];
    await panel.send(snapshotOf(taskView(messages, { status: 'completed' })));
    await page.locator('.chat-row[data-index="199"]').waitFor();
    await page.locator('.message-list').hover();
    // Up to the very top, as clicking the task's first message does: no scroll event comes when the rows shrink.
    await page.mouse.wheel(0, -1_000_000);
    await page.waitForFunction(() => document.querySelector('.message-list')!.scrollTop === 0);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor();
    await panel.send({
      type: 'taskMessages',
      taskId: 'task-1',
      start: 2,
      messages: [{ kind: 'notice', id: 'rewound', text: 'The conversation went back to checkpoint 0.', ts: 1 }],
    });
    await page.getByText('The conversation went back to checkpoint 0.').waitFor();
    await jump.waitFor({ state: 'detached' });
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

  test('a 19-command task is followed to its completion card; scrolling up offers Jump to latest', async () => {
    const { page } = panel;
    const messages: UiMessage[] = [{ kind: 'task', id: 'm-task', seq: 0, text: 'Run the checks one by one', ts: 1 }];
    await panel.send(snapshotOf(taskView(messages, { status: 'running' })));
    await page.getByText('Run the checks one by one').waitFor();
    // What the host sends for each command: the streamed answer, the logged answer and the running
    // card, live output, then the finished card with its output (taller than the running one).
    for (let i = 0; i < 19; i++) {
      const callId = `call-${i}`;
      const answer = `Step ${i}: running the next check.`;
      await panel.send({ type: 'streaming', taskId: 'task-1', text: answer, reasoning: '' });
      const tool = (status: 'running' | 'done', output?: string, details?: ToolFacts): UiMessage => ({
        kind: 'tool',
        id: `m-tool-${i}`,
        callId,
        tool: 'execute_command',
        params: { command: `npm run check-${i}` },
        status,
        ...(output ? { output } : {}),
        ...(details ? { details } : {}),
        ts: 2,
      });
      messages.push({ kind: 'assistant', id: `m-answer-${i}`, text: answer, reasoning: '', ts: 2 }, tool('running'));
      await panel.send({ type: 'taskMessages', taskId: 'task-1', start: messages.length - 2, messages: messages.slice(-2) });
      const lines = Array.from({ length: 12 }, (_, n) => `check-${i} line ${n}`);
      for (const line of lines.slice(0, 4)) await panel.send({ type: 'commandOutput', callId, text: `${line}\n` });
      const command = { command: `npm run check-${i}`, end: { kind: 'exited', exitCode: 0 }, output: lines.join('\n'), truncated: false } as const;
      messages[messages.length - 1] = tool('done', `Exit code: 0\nOutput:\n${lines.join('\n')}`, { command });
      await panel.send({ type: 'taskMessages', taskId: 'task-1', start: messages.length - 1, messages: messages.slice(-1) });
    }
    messages.push({ kind: 'completion', id: 'm-done', result: 'All 19 checks pass.', ts: 3 });
    await panel.send({ type: 'taskMessages', taskId: 'task-1', start: messages.length - 1, messages: messages.slice(-1) });
    await panel.send(snapshotOf(taskView(messages, { status: 'completed' })));

    // The completion card ends up wholly inside the list's visible area.
    const cardInView = () =>
      page.evaluate(() => {
        const list = document.querySelector('.message-list')!.getBoundingClientRect();
        const card = document.querySelector('.completion-card')?.getBoundingClientRect();
        return card !== undefined && card.top >= list.top - 1 && card.bottom <= list.bottom + 1;
      });
    await page.waitForFunction(() => {
      const list = document.querySelector('.message-list')!.getBoundingClientRect();
      const card = document.querySelector('.completion-card')?.getBoundingClientRect();
      return card !== undefined && card.top >= list.top - 1 && card.bottom <= list.bottom + 1;
    });
    assert.equal(await page.getByRole('button', { name: 'Jump to latest' }).count(), 0, 'the jump control shows while following');

    // Scrolling up to read stops following and offers the jump back.
    await page.locator('.message-list').hover();
    await page.mouse.wheel(0, -1200);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor();
    assert.equal(await cardInView(), false);
    await jump.click();
    await page.waitForFunction(() => {
      const list = document.querySelector('.message-list')!.getBoundingClientRect();
      const card = document.querySelector('.completion-card')?.getBoundingClientRect();
      return card !== undefined && card.top >= list.top - 1 && card.bottom <= list.bottom + 1;
    });
    await jump.waitFor({ state: 'detached' });
  });
});
