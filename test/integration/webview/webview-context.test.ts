// Bringing context in the Task box (real bundle, Chromium): @-mention completion, images
// attached to a message, and the chips of what a sent message attached.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
// A 1×1 PNG.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f00f0005010201d1b4d54d0000000049454e44ae426082',
  'hex',
);

describe('context in the Task box', () => {
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  test('typing @ asks for completions; the arrows and Enter pick one, Escape closes the list', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(undefined));
    const box = page.getByRole('textbox', { name: 'Task' });
    await box.pressSequentially('Fix @ap');
    const asked = await panel.waitForPosted('suggestMentions');
    assert.equal(asked.query, 'ap');
    const items = [
      { value: 'src/app.ts', label: 'src/app.ts', detail: 'file' },
      { value: 'src/apply.ts', label: 'src/apply.ts', detail: 'file' },
    ];
    await panel.send(snapshotOf(undefined, { mentionSuggestions: { query: 'ap', items } }));
    const list = page.getByRole('listbox', { name: 'Mention completions' });
    await list.waitFor();
    assert.deepEqual(await list.locator('.mention-label').allTextContents(), ['@src/app.ts', '@src/apply.ts']);
    await box.press('ArrowDown');
    await box.press('Enter');
    assert.equal(await box.inputValue(), 'Fix @src/apply.ts ');
    assert.equal(await list.count(), 0, 'the list closes once the mention is complete');
    assert.equal((await panel.posted()).filter((m) => m.type === 'newTask').length, 0, 'Enter picked; it did not send');

    await box.pressSequentially('and @ap');
    await panel.send(snapshotOf(undefined, { mentionSuggestions: { query: 'ap', items } }));
    await list.waitFor();
    await box.press('Escape');
    await list.waitFor({ state: 'detached' });
    await box.press('Enter');
    assert.equal((await panel.waitForPosted('newTask')).text, 'Fix @src/apply.ts and @ap');
  });

  test('typing / at the start asks for the user’s commands; picking one puts it in the box', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(undefined));
    const box = page.getByRole('textbox', { name: 'Task' });
    await box.pressSequentially('/re');
    assert.equal((await panel.waitForPosted('suggestCommands')).query, 're');
    await panel.send(
      snapshotOf(undefined, { commandSuggestions: { query: 're', items: [{ value: 'review', label: 'review <file>', detail: 'Review a file' }] } }),
    );
    const list = page.getByRole('listbox', { name: 'Command completions' });
    await list.waitFor();
    assert.match((await list.textContent()) ?? '', /\/review <file>Review a file/);
    await box.press('Tab');
    assert.equal(await box.inputValue(), '/review ');
  });

  test('images attached to a message go with it and leave the box once sent', async () => {
    const { page } = panel;
    await panel.send(snapshotOf(taskView([{ kind: 'task', id: 'e0', seq: 0, text: 'Make the page look right', ts }], { status: 'completed' })));
    await page.locator('input[type=file]').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: PNG });
    const strip = page.getByRole('list', { name: 'Images for the next message' });
    await strip.getByRole('img', { name: 'shot.png' }).waitFor();
    await page.getByRole('textbox', { name: 'Task' }).fill('It looks like this');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = await panel.waitForPosted('sendMessage');
    assert.deepEqual(sent.images, [{ name: 'shot.png', data: PNG.toString('base64') }]);
    await strip.waitFor({ state: 'detached' });
  });

  test('a sent message shows what its mentions attached as chips', async () => {
    const { page } = panel;
    await panel.send(
      snapshotOf(
        taskView([
          {
            kind: 'task',
            id: 'e0',
            seq: 0,
            text: 'Explain @src/app.ts and @problems',
            attached: [
              { kind: 'file', ref: 'src/app.ts', truncated: false },
              { kind: 'problems', ref: 'problems', truncated: true },
            ],
            ts,
          },
        ]),
      ),
    );
    const chips = page.getByRole('list', { name: 'Attached' });
    await chips.waitFor();
    assert.deepEqual(
      (await chips.getByRole('listitem').allTextContents()).map((t) => t.trim()),
      ['src/app.ts', 'problems (cut)'],
    );
  });
});
