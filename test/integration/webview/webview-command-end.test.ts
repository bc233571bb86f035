// A finished command's card says how it ended (real bundle, Chromium), even when its last chunk of
// live output arrives after its result, as output from a terminal can.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const task: UiMessage = { kind: 'task', id: 'e0', seq: 0, text: 'Run the tests', ts };
const running: UiMessage = { kind: 'tool', id: 'x1', callId: 'call-cmd', tool: 'execute_command', params: { command: 'npm test' }, status: 'running', ts };
const done: UiMessage = {
  ...running,
  status: 'done',
  output: 'Exit code: 3\nOutput:\nall 3 passed',
  details: { command: { command: 'npm test', end: { kind: 'exited', exitCode: 3 }, output: 'all 3 passed\n', truncated: false } },
} as UiMessage;

describe('a finished command card in the chat panel', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('the exit code shows once the result is logged, also when live output comes after it', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([task, running], { status: 'running' })));
    const card = page.locator('[data-call-id="call-cmd"]');
    await card.waitFor();
    await panel.send({ type: 'commandOutput', callId: 'call-cmd', text: 'all 3 ' });
    await card.locator('.command-output pre').filter({ hasText: 'all 3' }).waitFor();
    assert.equal(await card.locator('.exit-badge').count(), 0, 'no exit code while it runs');

    // The result, then the last live chunk (held back by the throttle) after it.
    await panel.send({ type: 'taskMessages', taskId: 'task-1', start: 1, messages: [done] });
    await panel.send({ type: 'commandOutput', callId: 'call-cmd', text: 'passed\n' });
    await card.getByLabel('Exit code 3').waitFor();
    assert.equal(await card.getByLabel('Exit code 3').textContent(), '3');
    assert.equal(await card.locator('.command-output pre').textContent(), 'all 3 passed\n');
  });
});
