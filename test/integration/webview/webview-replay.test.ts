// "Replay with…" on a history item, in Chromium.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { panelState, usePanelSuite, type PanelPage } from './webview-page.js';

const history = [{ taskId: 'old', task: 'Upgrade React to 19', startedAt: 1_700_000_000_000, updatedAt: 1_700_000_100_000, status: 'completed' }];
const settings = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: '', toolProtocol: 'xml' as const, hasApiKey: true };

describe('Replay with… in the history, in Chromium', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('names a model (the Settings one filled in) and posts replayTask; then says the replay runs', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ history, settings, view: 'history' }) });
    await page.getByRole('button', { name: 'Replay with…: Upgrade React to 19' }).click();
    const model = page.getByRole('textbox', { name: 'Model to replay with: Upgrade React to 19' });
    assert.equal(await model.inputValue(), 'claude-sonnet-4-5');
    await model.fill('gpt-4.1');
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const posted = await panel.waitForPosted('replayTask');
    assert.deepEqual({ taskId: posted.taskId, model: posted.model }, { taskId: 'old', model: 'gpt-4.1' });
    await page.getByRole('status').getByText('Replaying with gpt-4.1 in a scratch copy').waitFor();
    await page.getByRole('button', { name: 'OK' }).click();
    assert.equal(await page.getByRole('status').count(), 0);
  });

  test('a replay the host refuses shows why, and Cancel closes the form', async () => {
    const { page } = panel;
    await page.evaluate('window.__host.replies = "manual"');
    await panel.send({ type: 'snapshot', state: panelState({ history, settings, view: 'history' }) });
    await page.getByRole('button', { name: 'Replay with…: Upgrade React to 19' }).click();
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const posted = await panel.waitForPosted('replayTask');
    await page.evaluate(
      (id) => (window as unknown as { __host: { reply(id: string, error: string): void } }).__host.reply(id, 'task old has no checkpoints'),
      posted.id,
    );
    await page.getByText('task old has no checkpoints').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await page.getByRole('textbox', { name: 'Model to replay with: Upgrade React to 19' }).count(), 0);
  });
});
