// A streamed answer is drawn once at every moment, not only in the end: a MutationObserver in the
// page records, after every DOM change React commits, how many assistant messages hold the answer.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { HostMessage } from '../../../src/shared/protocol.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const taskMessage: UiMessage = { kind: 'task', id: 't', seq: 0, text: 'Make the greeting friendlier', ts };
const ANSWER = 'I will make the greeting **friendlier**.';
const logged: UiMessage = { kind: 'assistant', id: 'a1', text: ANSWER, reasoning: '', ts };

/** Starts counting; `window.__mostCopies` is the most copies of the answer seen at once. */
async function watchCopies(panel: PanelPage): Promise<void> {
  // A string, so the test runner's transform cannot add helpers the page does not have.
  await panel.page.evaluate(`(() => {
    window.__mostCopies = 0;
    const count = () => {
      const copies = [...document.querySelectorAll('.msg-assistant')].filter((el) => el.textContent.includes('friendlier')).length;
      window.__mostCopies = Math.max(window.__mostCopies, copies);
    };
    new MutationObserver(count).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  })()`);
}

async function streamThen(panel: PanelPage, end: HostMessage): Promise<number> {
  const { page } = panel;
  await panel.send(snapshotOf(taskView([taskMessage], { status: 'running' })));
  await watchCopies(panel);
  // Many chunks in a burst, so React has renders to defer, then the end of the stream at once.
  for (let i = 8; i <= ANSWER.length; i += 2) {
    await panel.send({ type: 'streaming', taskId: 'task-1', text: ANSWER.slice(0, i), reasoning: '' });
  }
  await panel.send({ type: 'streaming', taskId: 'task-1', text: ANSWER, reasoning: '' });
  await panel.send(end);
  await page.locator('.msg-assistant:not(.streaming)').getByText('friendlier').waitFor();
  await page.locator('.msg-assistant.streaming').waitFor({ state: 'detached' });
  assert.equal(await page.locator('.msg-assistant').count(), 1);
  return (await page.evaluate('window.__mostCopies')) as number;
}

describe('a streamed answer in Chromium', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('is never drawn twice when the logged message replaces the stream', async () => {
    const most = await streamThen(panel, { type: 'taskMessages', taskId: 'task-1', start: 1, messages: [logged] });
    assert.equal(most, 1, 'the streamed copy and the logged message were on screen together');
  });

  test('is never drawn twice when a snapshot brings the logged message', async () => {
    const most = await streamThen(panel, snapshotOf(taskView([taskMessage, logged], { status: 'running' })));
    assert.equal(most, 1, 'the streamed copy survived a snapshot that holds the logged message');
  });

  test('a snapshot taken mid-stream shows the text streamed so far, once', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([taskMessage], { status: 'running' })));
    await panel.send({ type: 'streaming', taskId: 'task-1', text: 'I will make', reasoning: '' });
    await panel.send({ ...snapshotOf(taskView([taskMessage], { status: 'running' })), streaming: { text: ANSWER, reasoning: '' } } as HostMessage);
    await page.locator('.msg-assistant.streaming').getByText('friendlier').waitFor();
    assert.equal(await page.locator('.msg-assistant').count(), 1);
  });
});
