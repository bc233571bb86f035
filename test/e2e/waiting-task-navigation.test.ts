// A task waiting for the provider setup never takes over navigation, in the real workbench with the
// PACKAGED extension: "OpenAI-compatible" chosen without a base URL, a task sent, then the view
// title bar's MCP Servers, Task History and Open Settings each open and stay open while the host
// keeps sending snapshots (a settings change each), and the waiting task starts on Save.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Frame, FrameLocator } from 'playwright-core';
import { useUnconfiguredWorkbench } from '../helpers/unconfigured-workbench';

const UI_TIMEOUT = 60_000;
const TASK = 'Say hello';
const ANSWER = 'Hello! The waiting task ran.';
const HEADINGS = { settings: 'Settings', history: 'History', mcp: 'MCP servers' } as const;
type PageView = keyof typeof HEADINGS;

describe('A task waiting for the setup never takes over navigation (packaged .vsix)', { timeout: 600_000 }, () => {
  const fresh = useUnconfiguredWorkbench('waiting');
  let panel: FrameLocator;
  let content: Frame;
  let settingsWrites = 0;

  /** The panel's own document (the inner frame of the webview), found by the app it renders. */
  async function panelDocument(): Promise<Frame> {
    const deadline = Date.now() + UI_TIMEOUT;
    for (;;) {
      for (const frame of fresh.workbench.page.frames()) {
        const hasApp = await frame.evaluate(() => document.querySelector('.app') !== null).catch(() => false);
        if (hasApp) return frame;
      }
      if (Date.now() > deadline) throw new Error('the panel document was not found');
      await fresh.workbench.page.waitForTimeout(200);
    }
  }

  /** Snapshots the panel has received since the counter was installed (observed, nothing changed). */
  const snapshotsSeen = () => content.evaluate(() => (window as unknown as { __snapshotsSeen: number }).__snapshotsSeen);

  /**
   * Changes a Smith setting in the workspace's settings file, as a person editing it would; the
   * host answers each change with a new snapshot. Waits until the panel has received it.
   */
  async function snapshotRoundTrip(): Promise<void> {
    const before = await snapshotsSeen();
    settingsWrites += 1;
    mkdirSync(join(fresh.workspace.root, '.vscode'), { recursive: true });
    writeFileSync(join(fresh.workspace.root, '.vscode', 'settings.json'), `${JSON.stringify({ 'smith.maxCost': settingsWrites }, null, 2)}\n`);
    const deadline = Date.now() + UI_TIMEOUT;
    while ((await snapshotsSeen()) <= before) {
      if (Date.now() > deadline) throw new Error(`no snapshot arrived after settings change ${settingsWrites}`);
      await fresh.workbench.page.waitForTimeout(100);
    }
  }

  /** The panel shows `view` and nothing else (not the chat's Task box, not another page). */
  async function expectShown(view: PageView): Promise<void> {
    await panel.getByRole('heading', { name: HEADINGS[view], exact: true }).waitFor({ timeout: UI_TIMEOUT });
    for (const [other, heading] of Object.entries(HEADINGS)) {
      if (other !== view) assert.equal(await panel.getByRole('heading', { name: heading, exact: true }).count(), 0, `${heading} shows beside ${view}`);
    }
    assert.equal(await panel.getByRole('textbox', { name: 'Task' }).count(), 0, `the chat took over from ${view}`);
    assert.equal(await panel.getByRole('region', { name: 'Set up a model provider' }).count(), 0, `the setup card took over from ${view}`);
  }

  /** Opens `view` from the view title bar, then checks it stays across several snapshots. */
  async function openAndStay(button: string, view: PageView, shot: string): Promise<void> {
    await fresh.workbench.page.locator('.part.sidebar').getByRole('button', { name: button, exact: true }).click();
    await expectShown(view);
    for (let i = 0; i < 3; i++) {
      await snapshotRoundTrip();
      await expectShown(view);
    }
    await fresh.workbench.screenshot(shot);
  }

  it('MCP Servers, Task History and Settings stay open; the waiting task starts on Save', async () => {
    await fresh.workbench.openViewContainer('Smith');
    panel = fresh.workbench.webviewFrame();
    await panel.getByRole('region', { name: 'Set up a model provider' }).waitFor({ timeout: UI_TIMEOUT });
    content = await panelDocument();
    await content.evaluate(() => {
      const w = window as unknown as { __snapshotsSeen: number };
      w.__snapshotsSeen = 0;
      window.addEventListener('message', (event: MessageEvent<{ type?: unknown }>) => {
        if (event.data?.type === 'snapshot') w.__snapshotsSeen += 1;
      });
    });

    // "OpenAI-compatible" chosen and saved, with no base URL (nor model).
    await fresh.workbench.page.locator('.part.sidebar').getByRole('button', { name: 'Open Settings', exact: true }).click();
    await panel.getByRole('heading', { name: 'Settings', exact: true }).waitFor({ timeout: UI_TIMEOUT });
    await panel.getByLabel('Provider').selectOption('openai-compatible');
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: UI_TIMEOUT });
    await panel.getByRole('button', { name: 'Back to chat' }).click();

    // The task, sent before the setup is complete: Settings opens and says why, to screen readers too.
    await panel.getByRole('textbox', { name: 'Task' }).fill(TASK);
    await panel.getByRole('button', { name: 'Send' }).click();
    await expectShown('settings');
    const explanation = panel.locator('[role="alert"], [role="status"]').filter({ hasText: "needs the server's address" });
    await explanation.waitFor({ timeout: UI_TIMEOUT });
    assert.match((await explanation.getAttribute('role')) ?? '', /^(alert|status)$/);
    await explanation.getByText(TASK).waitFor({ timeout: UI_TIMEOUT });
    await fresh.workbench.screenshot('waiting-task-1-settings');

    await openAndStay('MCP Servers', 'mcp', 'waiting-task-2-mcp');
    await openAndStay('Task History', 'history', 'waiting-task-3-history');
    await openAndStay('Open Settings', 'settings', 'waiting-task-4-settings');

    // The task still waits, word for word; nothing was sent to the model.
    await explanation.getByText(TASK).waitFor({ timeout: UI_TIMEOUT });
    assert.equal(fresh.llm.requests.length, 0);

    // The setup completed: the local scripted server as base URL, a model, Save.
    fresh.llm.enqueue({ text: `<attempt_completion>\n<result>${ANSWER}</result>\n</attempt_completion>` });
    await panel.getByLabel('Default model', { exact: true }).fill('scripted-model');
    await panel.getByLabel('Base URL').fill(fresh.llm.openAiBaseUrl);
    await panel.getByRole('button', { name: 'Save' }).click();

    // The waiting task's answer arrives in the chat.
    await panel.locator('.completion-card').getByText(ANSWER).waitFor({ timeout: UI_TIMEOUT });
    await panel.locator('.msg-task').getByText(TASK).waitFor({ timeout: UI_TIMEOUT });
    assert.equal(fresh.llm.requests.length, 1);
    assert.match(JSON.stringify(fresh.llm.requests[0]!.body), new RegExp(TASK));
    assert.equal(await panel.getByRole('textbox', { name: 'Task' }).inputValue(), '');
    await fresh.workbench.screenshot('waiting-task-5-answer');
  });
});
