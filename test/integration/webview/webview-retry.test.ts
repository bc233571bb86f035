import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;

describe('retries in the chat panel (Chromium)', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('a retry is a line in the conversation with its reason, wait and attempt number', async () => {
    const { page } = panel;
    const messages: UiMessage[] = [
      { kind: 'task', id: 't', seq: 0, text: 'Summarise the README', ts },
      {
        kind: 'retry',
        id: 'e2',
        attempt: 1,
        maxRetries: 3,
        delayMs: 1200,
        reason: 'No data from Anthropic for 60 s before the response started (the idle timeout); this attempt was abandoned.',
        ts,
      },
      { kind: 'retry', id: 'e3', attempt: 2, maxRetries: 3, delayMs: 2000, reason: 'Server error from Anthropic (HTTP 503); this is usually temporary', ts },
    ];
    await panel.send(snapshotOf(taskView(messages)));
    const lines = page.locator('.notice-retry');
    await lines.nth(1).waitFor();
    assert.equal(await lines.count(), 2);
    assert.equal(
      await lines.nth(0).textContent(),
      'No data from Anthropic for 60 s before the response started (the idle timeout); this attempt was abandoned. Retrying in 1 s (attempt 1 of 3).',
    );
    assert.equal(await lines.nth(1).textContent(), 'Server error from Anthropic (HTTP 503); this is usually temporary. Retrying in 2 s (attempt 2 of 3).');
    assert.equal(await lines.nth(1).getAttribute('data-attempt'), '2');
  });

  test('the retry being waited for counts down and offers Cancel; earlier ones stay plain lines', async () => {
    const { page } = panel;
    const now = Date.now();
    const messages: UiMessage[] = [
      { kind: 'task', id: 't', seq: 0, text: 'Summarise the README', ts },
      { kind: 'retry', id: 'e2', attempt: 1, maxRetries: 3, delayMs: 1000, reason: 'Rate limited (HTTP 429)', ts: now - 60_000 },
      { kind: 'retry', id: 'e3', attempt: 2, maxRetries: 3, delayMs: 4000, reason: 'Rate limited (HTTP 429)', ts: now },
    ];
    await panel.send(snapshotOf(taskView(messages, { status: 'running' })));
    const lines = page.locator('.notice-retry');
    await lines.nth(1).waitFor();
    assert.equal(await lines.nth(0).getByRole('button', { name: 'Cancel' }).count(), 0);
    assert.match((await lines.nth(1).textContent()) ?? '', /Rate limited \(HTTP 429\)\. Retrying in [34] s \(attempt 2 of 3\)\./);
    await lines
      .nth(1)
      .getByText(/Retrying in 2 s/)
      .waitFor();
    await lines
      .nth(1)
      .getByText(/Retrying now/)
      .waitFor({ timeout: 15_000 });
    await lines.nth(1).getByRole('button', { name: 'Cancel' }).click();
    await panel.waitForPosted('cancelTask');
  });
});
