// The panel at a real side bar's width: header controls that stay whole, tool cards whose file
// names and exit codes stay readable, no blank band above the approval bar, and text the host
// inserts into the Task box. The real bundle in Chromium through the harness.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import type { ToolFacts } from '../../../src/shared/tool-details.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { snapshotOf, taskView, usePanelSuite, type PanelPage } from './webview-page.js';

const ts = 1_700_000_000_000;
const taskMessage: UiMessage = { kind: 'task', id: 't', seq: 0, text: 'Tidy the settings form', ts };
const LONG_PATH = 'src/components/settings/provider-settings/settings-form.tsx';

/** True when the element shows all of its content (nothing clipped or elided) and lies inside the viewport. */
async function fullyShown(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return el.scrollWidth <= el.clientWidth + 1 && box.left >= 0 && box.right <= window.innerWidth + 0.5 && box.width > 0;
  });
}

/** True when the element's content is cut (ellipsis or clip). */
async function clipped(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
}

describe('panel layout at side-bar widths in Chromium', () => {
  const suite = usePanelSuite({ openEachTest: false });
  let panel: PanelPage;

  for (const width of [300, 220, 160]) {
    test(`at ${width} px every header control is whole, visible and usable`, async () => {
      panel = await suite.open({ width, height: 700 });
      const { page } = panel;
      // With API profiles, the header also offers to switch between them.
      const profiles = {
        'work account': { provider: 'openrouter' as const, model: 'anthropic/claude-sonnet-4.5' },
        local: { provider: 'ollama' as const, model: 'qwen2.5-coder:7b' },
      };
      const settings = {
        provider: 'openrouter' as const,
        model: 'anthropic/claude-sonnet-4.5',
        baseUrl: '',
        toolProtocol: 'xml' as const,
        hasApiKey: true,
        profiles,
      };
      await panel.send(
        snapshotOf(
          taskView([taskMessage], { usage: { inputTokens: 123_456, outputTokens: 7_890, cacheReadTokens: 50_000, cacheWriteTokens: 1_000 }, cost: 0.4567 }),
          { settings },
        ),
      );
      const plan = page.getByRole('button', { name: 'Plan', exact: true });
      const act = page.getByRole('button', { name: 'Act', exact: true });
      const modePicker = page.getByRole('combobox', { name: 'Mode' });
      const profile = page.getByRole('combobox', { name: 'API profile' });
      await act.waitFor();
      for (const [name, control] of [
        ['Plan', plan],
        ['Act', act],
        ['Mode', modePicker],
        ['API profile', profile],
        ['Plan/Act group', page.getByRole('group', { name: 'Plan/Act' })],
      ] as const) {
        assert.ok(await fullyShown(control), `${name} is cut off at ${width} px`);
      }
      assert.ok(await fullyShown(page.locator('.header-row')), 'the header row overflows');
      await plan.click();
      assert.equal((await panel.waitForPosted('setMode')).mode, 'plan');
      await modePicker.selectOption('reviewer');
      assert.equal((await panel.waitForPosted('setModeSlug')).modeSlug, 'reviewer');
    });
  }

  test('a long path keeps its file name whole and elides the folders; the full path is the tooltip', async () => {
    panel = await suite.open({ width: 300, height: 700 });
    const { page } = panel;
    await panel.send(
      snapshotOf(
        taskView([
          taskMessage,
          { kind: 'tool', id: 'r1', callId: 'call-read', tool: 'read_file', params: { path: LONG_PATH }, status: 'done', output: 'x', ts },
          { kind: 'tool', id: 'r2', callId: 'call-short', tool: 'read_file', params: { path: 'README.md' }, status: 'done', output: 'x', ts },
        ]),
      ),
    );
    const subject = page.locator('[data-call-id="call-read"] .tool-subject');
    await subject.waitFor();
    assert.equal(await subject.getAttribute('title'), LONG_PATH);
    assert.equal(await subject.textContent(), LONG_PATH);
    const name = subject.locator('.path-name');
    assert.equal(await name.textContent(), '/settings-form.tsx');
    assert.ok(await fullyShown(name), 'the file name is cut');
    assert.ok(await clipped(subject.locator('.path-dir')), 'the folders should be elided at 300 px');
    // A bare file name has no folder part to elide.
    const short = page.locator('[data-call-id="call-short"] .tool-subject');
    assert.equal(await short.locator('.path-dir').count(), 0);
    assert.equal(await short.locator('.path-name').textContent(), 'README.md');
  });

  for (const width of [300, 220]) {
    test(`at ${width} px every tool card's title stays inside its card, status included`, async () => {
      panel = await suite.open({ width, height: 900 });
      const { page } = panel;
      const tool = (callId: string, name: string, params: Record<string, string>, output?: string, details?: ToolFacts): UiMessage => ({
        kind: 'tool',
        id: callId,
        callId,
        tool: name,
        params,
        status: 'done',
        ...(output !== undefined ? { output } : {}),
        ...(details !== undefined ? { details } : {}),
        ts,
      });
      await panel.send(
        snapshotOf(
          taskView([
            taskMessage,
            tool('c1', 'replace_in_file', { path: 'src/greeting.ts', diff: '------- SEARCH\na\n=======\nb\n+++++++ REPLACE' }, 'saved', {
              edit: { path: 'src/greeting.ts', added: 1, removed: 1, created: false, sha256Before: 'a', sha256After: 'b' },
            }),
            tool('c2', 'execute_command', { command: 'echo smith-e2e-output; echo second-line; sleep 1; echo done' }, 'Exit code: 0\nOutput:\nx', {
              command: { command: 'echo', end: { kind: 'exited', exitCode: 0 }, output: 'x', truncated: false },
            }),
            tool('c3', 'read_file', { path: LONG_PATH }, 'x', { read: { path: LONG_PATH, firstLine: 1, lastLine: 2000, totalLines: 4000, truncated: true } }),
            tool('c4', 'list_code_definition_names', { path: 'src/a-file-name-far-too-long-for-any-narrow-side-bar-at-all.ts' }, 'x'),
            tool('c5', 'search_files', { path: 'src', regex: 'TODO|FIXME' }, 'x', {
              search: { path: 'src', query: 'TODO|FIXME', files: 12, matches: 300, truncated: true },
            }),
          ]),
        ),
      );
      await page.locator('[data-call-id="c5"]').waitFor();
      const outside = await page.locator('.tool-card').evaluateAll((cards) =>
        cards.flatMap((card) => {
          const box = card.getBoundingClientRect();
          // The boxes that clip their own content (the folders' inner text overflows them by design) or show it.
          const parts = '.tool-label, .tool-name, .tool-subject, .path-dir, .path-name, .tool-meta, .diff-stats, .tool-facts, .exit-badge, .tool-status';
          return [...card.querySelectorAll(parts)].flatMap((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5)
              ? [`${card.getAttribute('data-call-id')}: ${el.className || el.tagName}`]
              : [];
          });
        }),
      );
      assert.deepEqual(outside, []);
      // A file name wider than the card is the only one elided.
      assert.ok(await clipped(page.locator('[data-call-id="c4"] .path-name')));
      for (const callId of ['c1', 'c3']) assert.ok(await fullyShown(page.locator(`[data-call-id="${callId}"] .path-name`)), `${callId}'s file name is cut`);
    });
  }

  test("a finished command shows its output and an exit-code badge from the result's facts, not the text the model read", async () => {
    panel = await suite.open({ width: 300, height: 700 });
    const { page } = panel;
    const command = (callId: string, output: string, details?: ToolFacts, feedback?: string): UiMessage => ({
      kind: 'tool',
      id: callId,
      callId,
      tool: 'execute_command',
      params: { command: 'npm test' },
      status: 'done',
      output,
      ...(details !== undefined ? { details } : {}),
      ...(feedback !== undefined ? { feedback } : {}),
      ts,
    });
    const exited = (exitCode: number, output: string): ToolFacts => ({
      command: { command: 'npm test', end: { kind: 'exited', exitCode }, output, truncated: false },
    });
    await panel.send(
      snapshotOf(
        taskView([
          taskMessage,
          command('ok', 'Exit code: 0\nOutput:\nall 3 passed\n', exited(0, 'all 3 passed\n')),
          command('bad', 'Exit code: 2\nOutput:\nFAIL src/a.test.ts', exited(2, 'FAIL src/a.test.ts')),
          command('quiet', 'Exit code: 0\nOutput: (none)', exited(0, '')),
          command('fb', 'Exit code: 1\nOutput:\nnope', exited(1, 'nope'), 'run it anyway'),
          command('old', 'some output from an older format'),
        ]),
      ),
    );
    const card = (callId: string) => page.locator(`[data-call-id="${callId}"]`);
    await card('ok').waitFor();

    assert.equal(await card('ok').locator('.command-output pre').textContent(), 'all 3 passed\n');
    const okBadge = card('ok').getByLabel('Exit code 0');
    assert.equal(await okBadge.textContent(), '0');
    assert.match((await okBadge.getAttribute('class')) ?? '', /exit-ok/);
    assert.doesNotMatch((await card('ok').textContent()) ?? '', /Exit code:|Output:/);

    const badBadge = card('bad').getByLabel('Exit code 2');
    assert.equal(await badBadge.textContent(), '2');
    assert.match((await badBadge.getAttribute('class')) ?? '', /exit-failed/);
    const [ok, bad] = await Promise.all([okBadge, badBadge].map((b) => b.evaluate((el) => getComputedStyle(el).color)));
    assert.notEqual(ok, bad, 'exit 0 and exit 2 have the same colour');
    assert.equal(await card('bad').locator('.command-output pre').textContent(), 'FAIL src/a.test.ts');

    assert.ok(await card('quiet').getByText('No output').isVisible());
    assert.equal(await card('quiet').locator('.command-output').count(), 0);

    // The feedback is shown once, on its own line, not inside the output.
    assert.equal(await card('fb').locator('.command-output pre').textContent(), 'nope');
    assert.ok(await card('fb').locator('.tool-feedback').getByText('run it anyway').isVisible());

    // A result logged before facts were recorded is shown whole, without a badge.
    assert.equal(await card('old').locator('.command-output pre').textContent(), 'some output from an older format');
    assert.equal(await card('old').locator('.exit-badge').count(), 0);
  });

  test('a pending tool card sits right above the approval bar, without a blank band between', async () => {
    panel = await suite.open({ width: 300, height: 860 });
    const { page } = panel;
    const diff =
      '--- a/src/greeting.ts\n+++ b/src/greeting.ts\n@@ -1,3 +1,3 @@\n export function greet(name: string): string {\n-  return "Hello, " + name;\n+  return `Hello, ${name}!`;\n }';
    await panel.send(
      snapshotOf(
        taskView(
          [
            taskMessage,
            { kind: 'assistant', id: 'a1', text: '## Plan\n\nMake the greeting friendlier.', reasoning: '', ts },
            { kind: 'tool', id: 'e1', callId: 'call-7', tool: 'replace_in_file', params: { path: 'src/greeting.ts' }, status: 'awaiting_approval', ts },
          ],
          {
            status: 'awaiting_approval',
            pendingApproval: {
              callId: 'call-7',
              tool: 'replace_in_file',
              summary: 'Edit src/greeting.ts',
              path: 'src/greeting.ts',
              diff,
              stats: { added: 1, removed: 1 },
            },
          },
        ),
      ),
    );
    const bar = page.getByRole('region', { name: 'Approval needed' });
    await bar.waitFor();
    const card = page.locator('[data-call-id="call-7"]');
    await card.waitFor();
    // Rows are measured after they render; wait for the layout to settle.
    await page
      .waitForFunction(
        () => {
          const c = document.querySelector('[data-call-id="call-7"]')!.getBoundingClientRect();
          const b = document.querySelector('.approval-bar')!.getBoundingClientRect();
          return b.top - c.bottom >= 0 && b.top - c.bottom <= 16;
        },
        undefined,
        { timeout: 5000 },
      )
      .catch(() => undefined);
    const cardBox = (await card.boundingBox())!;
    const barBox = (await bar.boundingBox())!;
    const gap = barBox.y - (cardBox.y + cardBox.height);
    assert.ok(gap >= 0 && gap <= 16, `${gap.toFixed(1)} px between the pending card and the approval bar`);
    // The composer stays at the bottom of the panel.
    const composer = (await page.locator('.composer').boundingBox())!;
    assert.ok(Math.abs(composer.y + composer.height - 860) <= 1, 'the composer left the bottom');
  });
});

describe('text the host inserts into the Task box', () => {
  const suite = usePanelSuite({ openEachTest: false });
  let panel: PanelPage;

  const selection = 'src/config.ts (lines 3-4):\n```typescript\nconst a = 1;\nconst b = 2;\n```';

  test('insertText appends the block after the draft, focuses the box and keeps it as the draft', async () => {
    panel = await suite.open({ width: 300, height: 700 });
    const { page } = panel;
    await panel.send(snapshotOf(undefined));
    const input = page.getByRole('textbox', { name: 'Task' });
    await input.fill('Explain this:');
    await page.getByRole('heading', { name: 'What should Smith do?' }).click();
    await panel.send({ type: 'insertText', text: selection });
    await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('.composer-input')?.value.includes('const b'));
    const expected = `Explain this:\n\n${selection}\n`;
    assert.equal(await input.inputValue(), expected);
    assert.ok(await input.evaluate((el) => el === document.activeElement), 'the Task box has no focus');
    assert.equal(await input.evaluate((el) => (el as HTMLTextAreaElement).selectionStart), expected.length, 'the caret is not after the block');
    assert.match(JSON.stringify(await panel.uiState()), /const a = 1/);
    // Typing goes on below the block; Enter sends it all.
    await input.pressSequentially('Why two lines?');
    await input.press('Enter');
    assert.equal((await panel.waitForPosted('newTask')).text, `${expected}Why two lines?`);
  });

  test('an insert while another view shows brings the chat forward, and is inserted once', async () => {
    panel = await suite.open({ width: 300, height: 700 });
    const { page } = panel;
    await panel.send(snapshotOf(taskView([taskMessage], { status: 'completed' }), { view: 'settings' }));
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await panel.send({ type: 'insertText', text: selection });
    const input = page.getByRole('textbox', { name: 'Task' });
    await input.waitFor();
    assert.equal((await panel.waitForPosted('showView')).view, 'chat');
    await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('.composer-input')?.value !== '');
    assert.equal(await input.inputValue(), `${selection}\n`);
    await panel.send({ type: 'insertText', text: 'second.ts (line 1):\n```\nx\n```' });
    await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('.composer-input')?.value.includes('second.ts'));
    // Leaving the chat and coming back does not insert the same text again.
    await panel.send(snapshotOf(taskView([taskMessage], { status: 'completed' }), { view: 'history' }));
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await page.getByRole('button', { name: 'Back to chat' }).click();
    assert.equal(await input.inputValue(), `${selection}\n\nsecond.ts (line 1):\n\`\`\`\nx\n\`\`\`\n`);
  });
});
