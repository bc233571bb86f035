// The approval bar at a real side bar's width (real bundle, Chromium): every control whole and
// inside the view, with nothing to scroll sideways; and Compare and Restore look disabled while
// they are.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite } from './webview-page.js';

const ts = 1_700_000_000_000;
const MESSAGES: UiMessage[] = [
  { kind: 'task', id: 'e0', seq: 0, text: 'Tidy the repository', ts },
  { kind: 'checkpoint', id: 'e2', checkpointId: '0', changed: ['a.txt'], changedCount: 1, skipped: [], ts },
  { kind: 'tool', id: 'e3', callId: 'c1', tool: 'execute_command', params: { command: 'rm -rf build' }, status: 'awaiting_approval', ts },
];
const APPROVAL = {
  callId: 'c1',
  tool: 'execute_command',
  summary: 'Run rm -rf build',
  command: 'rm -rf build',
  allowRules: ['Bash(rm -rf build)'],
  batch: {
    id: 'r1',
    index: 1,
    calls: [
      { tool: 'execute_command', params: { command: 'rm -rf build' } },
      { tool: 'execute_command', params: { command: 'npm run build' } },
    ],
  },
};

/** Controls of the approval bar that lie (partly) outside the viewport or are cut inside themselves. */
function outside() {
  return [...document.querySelectorAll<HTMLElement>('.approval-bar button, .approval-bar textarea')].flatMap((el) => {
    const box = el.getBoundingClientRect();
    const whole = box.width > 0 && box.left >= -0.5 && box.right <= document.documentElement.clientWidth + 0.5 && el.scrollWidth <= el.clientWidth + 1;
    return whole ? [] : [`${(el.textContent ?? el.tagName).trim()} [${box.left.toFixed(0)}, ${box.right.toFixed(0)}]`];
  });
}

describe('the approval bar at side-bar widths in Chromium', () => {
  const suite = usePanelSuite({ openEachTest: false });

  for (const width of [300, 240]) {
    test(`at ${width} px every approval control is visible without scrolling sideways`, async () => {
      const panel = await suite.open({ width, height: 900 });
      const { page } = panel;
      await panel.send(snapshotOf(taskView(MESSAGES, { status: 'awaiting_approval', pendingApproval: APPROVAL })));
      const bar = page.getByRole('region', { name: 'Approval needed' });
      await bar.getByRole('button', { name: 'Approve all (2)' }).waitFor();
      for (const name of ['Approve', 'Reject', 'Always allow…', 'Approve all (2)'])
        assert.equal(await bar.getByRole('button', { name, exact: true }).count(), 1, name);
      assert.deepEqual(await page.evaluate(outside), [], `cut off at ${width} px`);
      assert.ok(
        await page.evaluate(() => document.scrollingElement!.scrollWidth <= document.documentElement.clientWidth + 1),
        `the page scrolls sideways at ${width} px`,
      );
      // The "Always allow" choices too, once open.
      await bar.getByRole('button', { name: 'Always allow…' }).click();
      await bar.getByRole('button', { name: 'In this workspace' }).waitFor();
      assert.deepEqual(await page.evaluate(outside), [], `cut off at ${width} px with the choices open`);
      assert.ok(await page.evaluate(() => document.scrollingElement!.scrollWidth <= document.documentElement.clientWidth + 1));
    });
  }

  test('Compare and Restore look disabled while they are disabled, and enabled otherwise', async () => {
    const panel = await suite.open({ width: 300, height: 700 });
    const { page } = panel;
    const look = (name: string) =>
      page
        .locator('.checkpoint[data-checkpoint="0"]')
        .getByRole('button', { name, exact: true })
        .evaluate((el) => {
          const style = getComputedStyle(el);
          return { disabled: (el as HTMLButtonElement).disabled, opacity: Number(style.opacity), cursor: style.cursor, color: style.color };
        });
    await panel.send(snapshotOf(taskView(MESSAGES.slice(0, 2), { status: 'running' })));
    await page.locator('.checkpoint[data-checkpoint="0"]').waitFor();
    const busy = { compare: await look('Compare'), restore: await look('Restore') };
    await panel.send(snapshotOf(taskView(MESSAGES.slice(0, 2), { status: 'completed' })));
    await page.locator('.checkpoint[data-checkpoint="0"]').getByRole('button', { name: 'Compare', exact: true }).and(page.locator(':enabled')).waitFor();
    const idle = { compare: await look('Compare'), restore: await look('Restore') };
    for (const key of ['compare', 'restore'] as const) {
      assert.equal(busy[key].disabled, true);
      assert.equal(idle[key].disabled, false);
      assert.ok(busy[key].opacity <= 0.6, `${key} disabled at opacity ${busy[key].opacity}`);
      assert.equal(idle[key].opacity, 1);
      assert.notEqual(busy[key].cursor, 'pointer');
      assert.notEqual(busy[key].color, idle[key].color, `${key} keeps the link colour while disabled`);
    }
  });
});
