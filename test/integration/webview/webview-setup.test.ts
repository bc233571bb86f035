// First run in the panel: the empty chat says a provider is needed and opens its setup, the setup
// names what is missing and the task waiting for it, and errors offer Open Settings and Retry.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { ProviderSettingsView } from '../../../src/shared/protocol.js';
import { panelState, snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const unconfigured: ProviderSettingsView = {
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  baseUrl: '',
  toolProtocol: 'xml',
  hasApiKey: false,
  missing: ['apiKey'],
};
const configured: ProviderSettingsView = {
  provider: 'openai-compatible',
  model: 'qwen',
  baseUrl: 'http://127.0.0.1:1/v1',
  toolProtocol: 'xml',
  hasApiKey: false,
  missing: [],
};

describe('provider setup in Chromium', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('the empty chat says a provider is needed and its button opens the setup', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ settings: unconfigured }) });
    const callout = page.getByRole('region', { name: 'Set up a model provider' });
    await callout.waitFor();
    await callout.getByRole('button', { name: 'Set up provider' }).click();
    const shown = await panel.waitForPosted('showView');
    assert.equal(shown.view, 'settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    // Opened by the user (no task waiting): the explanation is a status region, told as it changes.
    assert.match((await page.getByRole('status').filter({ hasText: 'Smith needs' }).textContent()) ?? '', /needs an API key/);

    // A configured provider: no callout.
    await panel.send({ type: 'snapshot', state: panelState({ view: 'settings', settings: configured }) });
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await page.getByRole('heading', { name: 'What should Smith do?' }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'Set up a model provider' }).count(), 0);
  });

  test('the setup names the waiting task, and its hint follows the form', async () => {
    const { page } = panel;
    const task = 'Add a README section about installing';
    await panel.send({ type: 'snapshot', state: panelState({ view: 'settings', settings: unconfigured, pendingTask: task }) });
    // A task waits: the explanation is an alert, so a screen reader tells it when the setup opens.
    const note = page.getByRole('alert');
    await note.getByText(task).waitFor();
    assert.match((await note.textContent()) ?? '', /needs an API key/);
    // A local server needs its address, not a key.
    await page.getByLabel('Provider').selectOption('openai-compatible');
    // The other provider's default model does not carry over to a local server.
    assert.equal(await page.getByLabel('Default model', { exact: true }).inputValue(), '');
    await note.getByText(/the server's address \(Base URL\) and a model/).waitFor();
    await page.getByLabel('Default model', { exact: true }).fill('qwen2.5-coder');
    await note.getByText("the server's address (Base URL)", { exact: false }).waitFor();
    await page.getByLabel('Base URL').fill('http://localhost:11434/v1');
    await page.waitForFunction(() => !document.querySelector('[role="alert"]')?.textContent?.includes('needs'));
    await note.getByText(task).waitFor();
  });

  test('the error the task stopped at offers Retry and Open Settings', async () => {
    const { page } = panel;
    const messages = [
      { kind: 'task' as const, id: 'm1', seq: 0, text: 'Fix the build', ts: 1 },
      { kind: 'error' as const, id: 'm2', text: '401 Incorrect API key provided', ts: 2 },
    ];
    await panel.send(snapshotOf(taskView(messages, { status: 'failed', error: '401 Incorrect API key provided' }), { settings: configured }));
    const card = page.locator('.error-card');
    await card.getByRole('button', { name: 'Open Settings' }).click();
    assert.equal((await panel.waitForPosted('showView')).view, 'settings');
    // The panel opens Settings itself (navigation is the webview's); back in the chat the error still offers Retry.
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await card.getByRole('button', { name: 'Retry' }).click();
    await panel.waitForPosted('retry');
  });

  test('a reported problem offers Open Settings and goes once the settings change', async () => {
    const { page } = panel;
    await panel.send({ type: 'snapshot', state: panelState({ settings: configured }) });
    await page.evaluate('window.__host.replies = "manual"');
    await page.getByRole('textbox', { name: 'Task' }).fill('Do something');
    await page.getByRole('button', { name: 'Send' }).click();
    const sent = await panel.waitForPosted('newTask');
    await page.evaluate(`window.__host.reply(${JSON.stringify(sent.id)}, 'Open a folder first: Smith works inside a workspace folder.')`);
    const banner = page.getByRole('alert').filter({ hasText: 'Open a folder first' });
    await banner.waitFor();
    await banner.getByRole('button', { name: 'Open Settings' }).waitFor();
    await panel.send({ type: 'snapshot', state: panelState({ settings: { ...configured, model: 'another-model' } }) });
    await banner.waitFor({ state: 'detached' });
  });

  test('a task cut off by a reload shows that it was interrupted, with Resume', async () => {
    const { page } = panel;
    const messages = [
      { kind: 'task' as const, id: 'm1', seq: 0, text: 'Create notes.txt', ts: 1 },
      { kind: 'tool' as const, id: 'm2', callId: 'c1', tool: 'write_to_file', params: { path: 'notes.txt' }, status: 'interrupted' as const, ts: 2 },
    ];
    await panel.send(snapshotOf(taskView(messages, { status: 'interrupted' }), { settings: configured }));
    const card = page.locator('.interrupted-card');
    await card.getByText('was interrupted').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Approve', exact: true }).count(), 0, 'looks like it waits for approval');
    await page.locator('.tool-card.status-interrupted').getByLabel('Interrupted').waitFor();
    await card.getByRole('button', { name: 'Resume' }).click();
    await panel.waitForPosted('retry');
  });
});
