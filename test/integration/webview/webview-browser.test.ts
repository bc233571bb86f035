// A browser_action card (real bundle, Chromium): the action and its target, the URL and console
// summary, the console lines (errors in the error colour) and the screenshot, which opens at full size;
// and the auto-approve bar's switch for the web tools.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConsoleLine } from '../../../src/shared/tool-details.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite } from './webview-page.js';

const ts = 1_700_000_000_000;
const task: UiMessage = { kind: 'task', id: 'e0', seq: 0, text: 'Check the app', ts };
// A 1×1 PNG, scaled up by the page only as far as the card allows.
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('the browser card', () => {
  const suite = usePanelSuite();

  test('shows the action, the console lines and the newest screenshot, which opens at full size', async () => {
    const { page } = suite.panel;
    const lines: ConsoleLine[] = [
      { level: 'log', text: 'log: app started (app.js:10)' },
      { level: 'error', text: 'uncaught TypeError: window.setupFooter is not a function (app.js:11)' },
    ];
    const launched: UiMessage = {
      kind: 'tool',
      id: 'e1',
      callId: 'call-1',
      tool: 'browser_action',
      params: { action: 'launch', url: 'http://127.0.0.1:3000/' },
      status: 'done',
      output: 'Opened http://127.0.0.1:3000/.',
      details: { browser: { action: 'launch', url: 'http://127.0.0.1:3000/', console: lines, screenshot: true } },
      screenshot: PNG,
      ts,
    };
    await suite.panel.send(snapshotOf(taskView([task, launched])));
    const card = page.locator('[data-call-id="call-1"]');
    await card.waitFor();
    assert.equal(await card.locator('.tool-name').textContent(), 'Browser');
    assert.equal(await card.locator('.tool-subject').textContent(), 'launch http://127.0.0.1:3000/');
    assert.equal(await card.locator('.tool-facts').textContent(), 'http://127.0.0.1:3000/ · 2 console messages');
    assert.deepEqual(
      await card.locator('.browser-console li').allTextContents(),
      lines.map((line) => line.text),
    );
    assert.deepEqual(await card.locator('.browser-console li.console-error').allTextContents(), [lines[1]!.text]);

    const shot = card.getByRole('button', { name: 'The page after launch' });
    assert.equal(await shot.getAttribute('aria-expanded'), 'false');
    await shot.click();
    assert.equal(await shot.getAttribute('aria-expanded'), 'true');
    assert.equal(await shot.getAttribute('title'), 'Show smaller');
    await card.getByRole('button', { name: 'Open screenshot' }).click();
    const opened = await suite.panel.waitForPosted('openScreenshot');
    assert.deepEqual([opened.taskId, opened.callId], ['task-1', 'call-1']);

    // A later action's card takes the screenshot; the earlier one keeps its console lines.
    const clicked: UiMessage = {
      kind: 'tool',
      id: 'e2',
      callId: 'call-2',
      tool: 'browser_action',
      params: { action: 'click', element: 'Increment' },
      status: 'done',
      output: 'Clicked "Increment".',
      details: { browser: { action: 'click', url: 'http://127.0.0.1:3000/', console: [], screenshot: true } },
      screenshot: PNG,
      ts,
    };
    await suite.panel.send(snapshotOf(taskView([task, { ...launched, screenshot: undefined }, clicked])));
    await page.locator('[data-call-id="call-2"] .browser-shot').waitFor();
    assert.equal(await card.locator('.browser-shot').count(), 0);
    assert.equal(await card.locator('.browser-console li').count(), 2);
    assert.equal(await page.locator('[data-call-id="call-2"] .tool-facts').textContent(), 'http://127.0.0.1:3000/ · no new console messages');
  });

  test('colours console lines by the level logged with them, not by their words', async () => {
    const { page } = suite.panel;
    const lines: ConsoleLine[] = [
      { level: 'error', text: 'Failed to load resource (app.js:3)' },
      { level: 'warn', text: 'deprecated: use fetch' },
      { level: 'log', text: 'error: the word only' },
      { level: 'info', text: 'warning: the word only' },
      { level: 'debug', text: 'tick' },
    ];
    const shown: UiMessage = {
      kind: 'tool',
      id: 'e3',
      callId: 'call-3',
      tool: 'browser_action',
      params: { action: 'console' },
      status: 'done',
      output: 'Console messages',
      details: { browser: { action: 'console', url: 'http://127.0.0.1:3000/', console: lines, screenshot: false } },
      ts,
    };
    await suite.panel.send(snapshotOf(taskView([task, shown])));
    const card = page.locator('[data-call-id="call-3"]');
    await card.locator('.browser-console li').first().waitFor();
    assert.deepEqual(
      await card.locator('.browser-console li').allTextContents(),
      lines.map((line) => line.text),
    );
    assert.deepEqual(await card.locator('.browser-console li.console-error').allTextContents(), ['Failed to load resource (app.js:3)']);
    assert.deepEqual(await card.locator('.browser-console li.console-warning').allTextContents(), ['deprecated: use fetch']);
  });

  test('the auto-approve bar has a Web toggle for the web tools', async () => {
    const { page } = suite.panel;
    const view = { readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 };
    await suite.panel.send(snapshotOf(taskView([task]), { autoApprove: { ...view, browser: true } }));
    const bar = page.getByRole('region', { name: 'Auto-approve' });
    await bar.waitFor();
    assert.match((await bar.textContent()) ?? '', /Auto-approve: Read, Web/);
    await bar.getByRole('button', { name: /Auto-approve/ }).click();
    await page.evaluate('window.__host.replies = "manual"');
    await bar.getByRole('checkbox', { name: 'Web' }).uncheck();
    assert.deepEqual((await suite.panel.waitForPosted('setAutoApprove')).change, { browser: false });
  });
});
