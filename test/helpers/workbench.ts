// End-to-end harness: Smith in the real VS Code workbench (code-server), driven by playwright-core
// in Debian's Chromium. Selectors and timings: shared/notes/real-vscode-offline.md.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, FrameLocator, Locator, Page } from 'playwright-core';
import { launchChromium } from '../../scripts/workbench/browser.mjs';
import { developmentPayload, startCodeServer, type CodeServer } from '../../scripts/workbench/code-server.mjs';
import { DEFAULT_VSIX_PATH } from '../../scripts/workbench/package-vsix.mjs';
import { REPO_ROOT } from '../../scripts/workbench/workbench-cache.mjs';

/** Screenshots of end-to-end tests (gitignored). */
export const E2E_ARTIFACTS = join(REPO_ROOT, '.test-artifacts', 'e2e');

export interface OpenWorkbenchOptions {
  /** Folder the workbench opens. */
  workspace: string;
  /**
   * The packaged extension to install; DEFAULT_VSIX_PATH (written by package-vsix.mjs) when
   * neither this nor `developmentPath` is given.
   */
  vsix?: string;
  /** Run the unpackaged extension from this folder instead of installing a .vsix. */
  developmentPath?: string;
  /** Other extensions' .vsix files installed beside Smith (e.g. one that offers language models). */
  otherVsix?: readonly string[];
  /** Environment of the server and so of the extension host (e.g. SMITH_API_KEY, SMITH_STORAGE). */
  env?: Record<string, string>;
  /** User settings merged over the quiet defaults. */
  settings?: Record<string, unknown>;
  /** How long to wait for the workbench UI (default 120 s), the page load included. */
  readyTimeoutMs?: number;
}

export interface Workbench {
  readonly page: Page;
  readonly browser: BrowserContext;
  readonly server: CodeServer;
  /** Saves `.test-artifacts/e2e/<name>.png` and returns its path. */
  screenshot(name: string): Promise<string>;
  /** Clicks the activity-bar entry whose title starts with `title` and returns it. */
  openViewContainer(title: string): Promise<Locator>;
  /** The content frame of the visible webview (a webview is two nested iframes). */
  webviewFrame(): FrameLocator;
  /** Closes the browser and stops code-server's whole process group. */
  close(): Promise<void>;
}

/** Starts code-server with Smith, opens the workbench in Chromium and waits until it is usable. */
export async function openWorkbench(options: OpenWorkbenchOptions): Promise<Workbench> {
  const vsix = options.developmentPath ? undefined : (options.vsix ?? DEFAULT_VSIX_PATH);
  if (vsix && !existsSync(vsix)) {
    throw new Error(`${vsix} does not exist; build and package first: node esbuild.mjs && node scripts/workbench/package-vsix.mjs`);
  }
  const server = await startCodeServer({
    workspace: options.workspace,
    vsix: [...(vsix ? [vsix] : []), ...(options.otherVsix ?? [])],
    env: options.env,
    settings: options.settings,
  });
  let browser: BrowserContext | undefined;
  try {
    browser = await launchChromium({ userDataDir: join(server.runDir, 'chromium') });
    const page = browser.pages()[0] ?? (await browser.newPage());
    const payload = options.developmentPath ? developmentPayload({ extensionDevelopmentPath: options.developmentPath }) : undefined;
    // Wide: on a busy machine the first load of the workbench alone can take longer than Playwright's 30 s default.
    const timeout = options.readyTimeoutMs ?? 120_000;
    await page.goto(server.workbenchUrl({ payload }), { timeout });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout });
    // The activity bar fills in once the workbench has restored its views.
    await page.locator('.part.activitybar a.action-label').first().waitFor({ state: 'visible', timeout });
    return workbenchHandle(page, browser, server);
  } catch (error) {
    await browser?.close().catch(() => {});
    const log = server.logTail(20);
    await server.stop({ keepRunDir: true });
    throw new Error(`The workbench did not open: ${error instanceof Error ? error.message : String(error)}\ncode-server log (${server.logFile}):\n${log}`);
  }
}

function workbenchHandle(page: Page, browser: BrowserContext, server: CodeServer): Workbench {
  return {
    page,
    browser,
    server,
    async screenshot(name) {
      mkdirSync(E2E_ARTIFACTS, { recursive: true });
      const path = join(E2E_ARTIFACTS, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
    async openViewContainer(title) {
      // The li[role=tab] around it has an empty aria-label; the link carries the title.
      const label = `a.action-label[aria-label^="${title}"]`;
      const item = page.locator('.part.activitybar li.action-item', { has: page.locator(label) }).first();
      const entry = item.locator(label);
      // Clicking the container that is already showing hides the side bar instead.
      const showing = /\bchecked\b/.test((await item.getAttribute('class')) ?? '');
      if (!showing) await entry.click();
      await item.and(page.locator('.checked')).waitFor({ timeout: 30_000 });
      return entry;
    },
    webviewFrame: () => page.frameLocator('iframe.webview.ready').frameLocator('#active-frame'),
    async close() {
      await browser.close().catch(() => {});
      await server.stop();
    },
  };
}
