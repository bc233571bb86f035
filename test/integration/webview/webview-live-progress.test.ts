// The todo list, the context bar and the usage line follow the run as its events arrive (real
// bundle, Chromium): each `taskProgress` message updates them while an answer streams, with no
// snapshot in between.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });
const context = (tokens: number) => ({ tokens, window: 200_000, system: 3_000, tools: 0, conversation: tokens - 3_000, results: 0 });

describe('live usage, todo list and context bar in the chat panel', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('each progress message updates them while the answer streams; one for another task changes nothing', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([{ kind: 'task', id: 'e0', seq: 0, text: 'Fix the parser bug', ts }], { status: 'running', usage: usage(0, 0) })));
    await page.getByRole('log', { name: 'Conversation' }).waitFor();
    const todoList = page.getByRole('region', { name: 'Todo list' });
    const bar = page.getByRole('group', { name: 'Context window' });
    assert.equal(await todoList.count(), 0);
    assert.equal(await bar.count(), 0);

    let streamed = '';
    for (let step = 1; step <= 3; step++) {
      streamed += `Part ${step} of a long answer. `;
      await panel.send({ type: 'streaming', taskId: 'task-1', text: streamed, reasoning: '' });
      const todos = [
        { text: 'Read the parser', status: step > 1 ? ('completed' as const) : ('in_progress' as const) },
        { text: 'Fix the bug', status: step > 2 ? ('in_progress' as const) : ('pending' as const) },
      ];
      await panel.send({
        type: 'taskProgress',
        taskId: 'task-1',
        progress: { usage: usage(step * 10_000, step * 500), todos, context: context(step * 40_000) },
      });
      await todoList
        .locator('.todo-toggle')
        .filter({ hasText: `Todo ${step > 1 ? 1 : 0}/2` })
        .waitFor();
      await bar
        .locator('.context-figures')
        .filter({ hasText: `${step * 40}k / 200k` })
        .waitFor();
      await page
        .getByRole('group', { name: 'Usage' })
        .locator('.usage-input')
        .filter({ hasText: `${step * 10}k` })
        .waitFor();
      // Still streaming: the progress came between the deltas, not after the answer.
      await page.getByText(`Part ${step} of a long answer.`).waitFor();
    }

    // A progress message of a task no longer open is dropped.
    await panel.send({ type: 'taskProgress', taskId: 'other-task', progress: { usage: usage(99_000, 1), context: context(190_000) } });
    await panel.send({ type: 'streaming', taskId: 'task-1', text: `${streamed}Done.`, reasoning: '' });
    await page.getByText('Done.').waitFor();
    assert.equal(await bar.locator('.context-figures').textContent(), '120k / 200k');
    assert.equal(await todoList.count(), 1);
  });
});
