// The Preview button on a command approval, in the real webview (Chromium): it asks the host for a
// preview, shows the summary the host sends back, then offers Run for real, Apply preview (only when
// the preview shows everything) and Reject.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { PendingApproval } from '../../../src/shared/protocol.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const taskMessage: UiMessage = { kind: 'task', id: 't', seq: 0, text: 'Build it', ts };
const base = { callId: 'call-p', tool: 'execute_command', summary: 'Run command', command: 'make' } as const;
const summary = {
  command: 'make',
  ran: true,
  exitCode: 0,
  timedOut: false,
  created: ['out/app'],
  changed: ['src/a.c'],
  deleted: [],
  added: 3,
  removed: 1,
  notPreviewable: [],
};

describe('webview: command preview', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => {
    panel = suite.panel;
  });

  const show = (pendingApproval: PendingApproval) => panel.send(snapshotOf(taskView([taskMessage], { status: 'awaiting_approval', pendingApproval })));

  test('Preview beside Approve posts previewCommand; a finished preview offers Run for real, Apply preview and Reject', async () => {
    const { page } = panel;
    await show({ ...base, preview: { running: false, applicable: false } });
    const bar = page.getByRole('region', { name: 'Approval needed' });
    assert.ok(await bar.getByRole('button', { name: 'Approve', exact: true }).isVisible());
    await bar.getByRole('button', { name: 'Preview', exact: true }).click();
    const asked = await panel.waitForPosted('previewCommand');
    assert.equal(asked.callId, 'call-p');

    await show({ ...base, preview: { running: true, applicable: false } });
    await bar.getByRole('status').getByText('Previewing on a copy of the workspace').waitFor();
    assert.equal(await bar.getByRole('button', { name: 'Preview', exact: true }).isDisabled(), true);

    await show({
      ...base,
      preview: { running: false, applicable: true, summary, counts: { 'out/app': { added: 2, removed: 0 }, 'src/a.c': { added: 1, removed: 1 } } },
    });
    const region = bar.getByRole('region', { name: 'Command preview' });
    await region.waitFor();
    assert.match((await region.textContent()) ?? '', /1 created, 1 changed, 0 deleted \(\+3 -1 lines\); exit code 0/);
    assert.match((await region.textContent()) ?? '', /created {2}out\/app \(\+2 -0\)/);
    assert.ok(await bar.getByRole('button', { name: 'Run for real' }).isVisible());
    assert.ok(await bar.getByRole('button', { name: 'Reject', exact: true }).isVisible());
    await bar.getByRole('button', { name: 'Apply preview' }).click();
    const approve = await panel.waitForPosted('approve');
    assert.deepEqual([approve.callId, approve.applyPreview], ['call-p', true]);
  });

  test('a preview that does not show everything names the reason and offers no Apply', async () => {
    const { page } = panel;
    await show({
      ...base,
      preview: {
        running: false,
        applicable: false,
        summary: {
          ...summary,
          ran: false,
          created: [],
          changed: [],
          added: 0,
          removed: 0,
          notPreviewable: [{ code: 'remote-effect', detail: 'git push changes another repository; not run' }],
        },
      },
    });
    const bar = page.getByRole('region', { name: 'Approval needed' });
    const region = bar.getByRole('region', { name: 'Command preview' });
    await region.waitFor();
    assert.match((await region.textContent()) ?? '', /not previewable \(remote-effect\): git push/);
    assert.equal(await bar.getByRole('button', { name: 'Apply preview' }).isDisabled(), true);
    await bar.getByRole('button', { name: 'Run for real' }).click();
    const approve = await panel.waitForPosted('approve');
    assert.equal(approve.applyPreview, undefined);
  });

  test('a command with no preview offered has no Preview button', async () => {
    await show({ ...base });
    const bar = panel.page.getByRole('region', { name: 'Approval needed' });
    await bar.getByRole('button', { name: 'Approve', exact: true }).waitFor();
    assert.equal(await bar.getByRole('button', { name: 'Preview' }).count(), 0);
  });
});
