// The context bar (real bundle, Chromium): tokens against the window, the breakdown on hover, the
// condense line, and Condense while Smith is not working.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const context = { tokens: 150_000, window: 200_000, system: 3_000, tools: 0, conversation: 147_000, results: 120_000, condenseAt: 0.8 };

describe('the context bar in the chat panel', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('shows the window used with its breakdown, and Condense posts condense', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([{ kind: 'task', id: 'e0', seq: 0, text: 'Read the logs', ts }], { context, status: 'completed' })));
    const bar = page.getByRole('group', { name: 'Context window' });
    await bar.waitFor();
    assert.equal(await bar.locator('.context-figures').textContent(), '150k / 200k');
    assert.equal(await bar.getByRole('meter').getAttribute('aria-valuenow'), '75');
    const title = (await bar.getAttribute('title')) ?? '';
    assert.match(title, /System prompt: 3,000\nConversation: 27,000\nTool results: 120,000\nCondensed by itself at 80 % \(160k\)/);
    await bar.getByRole('button', { name: 'Condense' }).click();
    assert.equal((await panel.waitForPosted('condense')).taskId, 'task-1');
  });

  test('past the condense line the bar warns; while Smith works Condense waits', async () => {
    const { page } = panel;
    await panel.send(
      snapshotOf(taskView([{ kind: 'task', id: 'e0', seq: 0, text: 'Read the logs', ts }], { context: { ...context, tokens: 170_000 }, status: 'running' })),
    );
    const bar = page.getByRole('group', { name: 'Context window' });
    await bar.waitFor();
    assert.equal(await bar.locator('.context-fill.full').count(), 1);
    assert.equal(await bar.getByRole('button', { name: 'Condense' }).isDisabled(), true);
  });

  test('a model whose window is unknown shows the tokens alone, without a meter', async () => {
    const { page } = panel;
    const { window: _window, ...unknown } = context;
    await panel.send(snapshotOf(taskView([{ kind: 'task', id: 'e0', seq: 0, text: 'Read the logs', ts }], { context: unknown, status: 'completed' })));
    const bar = page.getByRole('group', { name: 'Context window' });
    await bar.waitFor();
    assert.equal(await bar.locator('.context-figures').textContent(), '150k tokens (window unknown)');
    assert.equal(await bar.getByRole('meter').count(), 0);
  });
});
