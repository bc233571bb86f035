// The chat draws from the snapshot its page's HTML carries, before the host has answered `ready`
// (real bundle, real Chromium, the dev harness playing the host); the same HTML loaded again (VS
// Code showing a hidden view) does not draw that old snapshot.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { firstSnapshotElement, type SnapshotMessage } from '../../../src/shared/first-snapshot.js';
import type { WebviewMessage } from '../../../src/shared/protocol.js';
import { panelState, startHarness, type Harness } from './webview-page.js';

/** A task text that would end a script block and run one of its own, were it not escaped. */
const HOSTILE = 'Fix </script><script>window.__injected = true</script><!-- the login';

describe('the first snapshot in the page’s HTML', () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
    const page = readFileSync(join(harness.outdir, 'harness.html'), 'utf8');
    const snapshot: SnapshotMessage = {
      type: 'snapshot',
      state: panelState({ history: [{ taskId: 't1', task: HOSTILE, startedAt: 1, updatedAt: 2, status: 'completed' }] }),
    };
    const withSnapshot = page.replace('<script src="harness.js">', `${firstSnapshotElement(snapshot, 'page-1')}\n    <script src="harness.js">`);
    assert.notEqual(withSnapshot, page, 'the harness page has the scripts to insert before');
    writeFileSync(join(harness.outdir, 'first-snapshot.html'), withSnapshot);
  });
  after(() => harness?.close());

  async function open(): Promise<{ page: Page; problems: () => Promise<string[]>; close: () => Promise<void> }> {
    const context = await harness.browser.newContext({ viewport: { width: 420, height: 720 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    await page.goto(`${harness.baseUrl}/first-snapshot.html`);
    return {
      page,
      problems: async () => [...errors, ...((await page.evaluate('window.__cspViolations')) as string[]).map((v) => `csp: ${v}`)],
      close: () => context.close(),
    };
  }

  test('draws the chat from it while the host has not answered ready; task text stays text', async () => {
    const panel = await open();
    try {
      // The harness answers nothing: whatever shows came from the page's HTML.
      await panel.page.getByRole('textbox', { name: 'Task' }).waitFor({ state: 'visible', timeout: 30_000 });
      await panel.page.getByRole('button', { name: HOSTILE }).waitFor({ state: 'visible', timeout: 30_000 });
      const posted = (await panel.page.evaluate('window.__posted')) as WebviewMessage[];
      assert.deepEqual(
        posted.map((m) => m.type),
        ['ready'],
        'it still says ready, for the fresh snapshot',
      );
      assert.equal(await panel.page.evaluate('window.__injected === true'), false, 'no script came out of the task text');
      assert.deepEqual(await panel.problems(), []);
    } finally {
      await panel.close();
    }
  });

  test('the same HTML loaded again waits for the host’s snapshot instead of drawing the old one', async () => {
    const panel = await open();
    try {
      await panel.page.getByRole('textbox', { name: 'Task' }).waitFor({ state: 'visible', timeout: 30_000 });
      // VS Code keeps the webview's state and loads the same HTML when a hidden view is shown again.
      await panel.page.reload();
      await panel.page.waitForFunction('window.__posted.some((m) => m.type === "ready")');
      await panel.page.getByRole('status').filter({ hasText: 'Loading' }).waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await panel.page.getByRole('textbox', { name: 'Task' }).count(), 0, 'no chat drawn from the old snapshot');
      await panel.page.evaluate(
        (state) => (window as unknown as { __host: { send(m: unknown): void } }).__host.send({ type: 'snapshot', state }),
        panelState({ history: [{ taskId: 't2', task: 'A newer task', startedAt: 3, updatedAt: 4, status: 'completed' }] }) as unknown,
      );
      await panel.page.getByRole('button', { name: 'A newer task' }).waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await panel.page.getByRole('button', { name: HOSTILE }).count(), 0);
      assert.deepEqual(await panel.problems(), []);
    } finally {
      await panel.close();
    }
  });
});
