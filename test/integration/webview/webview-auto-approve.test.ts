// The auto-approve bar above the Task box (real bundle, Chromium): a summary that opens into the
// toggles and the limits per task; each change is posted for the settings.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;

describe('the auto-approve bar', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('summarises what runs unasked; toggles and limits post setAutoApprove', async () => {
    const { page } = panel;
    await panel.send(
      snapshotOf(taskView([{ kind: 'task', id: 'e0', seq: 0, text: 'Fix it', ts }]), {
        autoApprove: { readFiles: true, editFiles: false, safeCommands: true, allCommands: false, mcpTools: false, maxRequests: 25, maxCost: 2 },
      }),
    );
    const bar = page.getByRole('region', { name: 'Auto-approve' });
    await bar.waitFor();
    assert.match((await bar.textContent()) ?? '', /Auto-approve: Read, Safe commands/);
    await bar.getByRole('button', { name: /Auto-approve/ }).click();
    // As the real host does, the changed settings (not a bare reply) confirm a toggle: no reply here, so it stays as clicked.
    await page.evaluate('window.__host.replies = "manual"');

    await bar.getByRole('checkbox', { name: 'Edit' }).check();
    assert.deepEqual((await panel.waitForPosted('setAutoApprove')).change, { editFiles: true });
    await bar.getByRole('checkbox', { name: 'Read' }).uncheck();
    assert.deepEqual((await panel.waitForPosted('setAutoApprove')).change, { readFiles: false });

    const requests = bar.getByRole('spinbutton', { name: 'Max requests' });
    assert.equal(await requests.inputValue(), '25');
    await requests.fill('40');
    await requests.press('Enter');
    assert.deepEqual((await panel.waitForPosted('setAutoApprove')).change, { maxRequests: 40 });
    const cost = bar.getByRole('spinbutton', { name: 'Max cost ($)' });
    assert.equal(await cost.inputValue(), '2');
    await cost.fill('');
    await cost.press('Enter');
    assert.deepEqual((await panel.waitForPosted('setAutoApprove')).change, { maxCost: 0 }, 'empty removes the limit');
  });

  test('with the sandbox on, the bar says commands are sandboxed; without it, the command toggles say what they reach', async () => {
    const { page } = panel;
    const view = { readFiles: true, editFiles: false, safeCommands: false, allCommands: true, mcpTools: false, maxRequests: 25 };
    await panel.send(snapshotOf(taskView([{ kind: 'task', id: 'e0', seq: 0, text: 'Fix it', ts }]), { autoApprove: { ...view, sandboxed: true } }));
    const bar = page.getByRole('region', { name: 'Auto-approve' });
    await bar.waitFor();
    await page.waitForFunction(() => document.querySelector('.auto-approve')?.textContent?.includes('sandboxed'));
    await bar.getByRole('button', { name: /Auto-approve/ }).click();
    assert.match(
      (await bar.locator('label', { hasText: 'All commands' }).getAttribute('title')) ?? '',
      /sandboxed: a command can change the workspace, nothing else/,
    );
    assert.match((await bar.locator('label', { hasText: 'Read' }).getAttribute('title')) ?? '', /^Read files and list folders in the workspace$/);

    await panel.send(snapshotOf(taskView([{ kind: 'task', id: 'e0', seq: 0, text: 'Fix it', ts }]), { autoApprove: view }));
    await page.waitForFunction(() => !document.querySelector('.auto-approve')?.textContent?.includes('sandboxed'));
    assert.match(
      (await bar.locator('label', { hasText: 'All commands' }).getAttribute('title')) ?? '',
      /runs as you, with your files and network; smith\.sandbox confines commands/,
    );
  });
});
