// Drives the real panel bundle in Debian's Chromium through the dev harness
// (webview-ui/dev/harness.ts), which plays the extension host: no VS Code, no mocks of the UI.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach } from 'node:test';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { HostMessage, PanelState, TaskView, WebviewMessage } from '../../../src/shared/protocol.js';
import type { UiMessage } from '../../../src/shared/ui-messages.js';
import { CHROMIUM_ARGS } from '../../../scripts/workbench/browser.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
};

/** The repository holding webview-ui/, found from the working directory (npm runs tests from the root). */
function repositoryRoot(): string {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'webview-ui', 'build.mjs'))) return dir;
    if (dirname(dir) === dir) throw new Error(`webview-ui/build.mjs not found above ${process.cwd()}`);
  }
}

/** A built panel served on 127.0.0.1 plus a Chromium to look at it. */
export interface Harness {
  readonly browser: Browser;
  readonly baseUrl: string;
  readonly outdir: string;
  close(): Promise<void>;
}

/** Builds the panel into a temp folder, serves it and launches Chromium. */
export async function startHarness(options: { production?: boolean } = {}): Promise<Harness> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}. Install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`);
  }
  const outdir = mkdtempSync(join(tmpdir(), 'smith-webview-'));
  // An absolute URL: tsx may evaluate this helper from a data: URL, where relative imports fail.
  const buildModule = pathToFileURL(join(repositoryRoot(), 'webview-ui', 'build.mjs')).href;
  const { buildWebview } = (await import(buildModule)) as typeof import('../../../webview-ui/build.mjs');
  await buildWebview({ production: options.production ?? false, outdir });

  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const file = resolve(outdir, `.${path}`);
    if (!file.startsWith(outdir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS], headless: true });
  return {
    browser,
    baseUrl: `http://127.0.0.1:${port}`,
    outdir,
    async close() {
      await browser.close();
      await new Promise<void>((done) => server.close(() => done()));
      rmSync(outdir, { recursive: true, force: true });
    },
  };
}

/** One panel page with the host's side of the conversation. */
export interface PanelPage {
  readonly page: Page;
  /** Uncaught errors, console errors (React warnings included) and CSP violations, to assert empty. */
  problems(): Promise<string[]>;
  send(message: HostMessage): Promise<void>;
  posted(): Promise<WebviewMessage[]>;
  /** Waits for the next posted message of `type` after those already seen, and returns it. */
  waitForPosted<T extends WebviewMessage['type']>(type: T): Promise<Extract<WebviewMessage, { type: T }>>;
  uiState(): Promise<unknown>;
  close(): Promise<void>;
}

/** Opens the harness page and waits for the panel's `ready`. */
export async function openPanel(harness: Harness, viewport = { width: 420, height: 720 }): Promise<PanelPage> {
  const context = await harness.browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  await page.goto(`${harness.baseUrl}/harness.html`);
  await page.waitForFunction('window.__posted.some((m) => m.type === "ready")');
  const seen = new Map<string, number>();

  const posted = () => page.evaluate('window.__posted') as Promise<WebviewMessage[]>;
  return {
    page,
    async problems() {
      const csp = (await page.evaluate('window.__cspViolations')) as string[];
      return [...errors, ...csp.map((v) => `csp: ${v}`)];
    },
    send: (message) => page.evaluate((m) => (window as unknown as { __host: { send(m: unknown): void } }).__host.send(m), message as unknown),
    posted,
    async waitForPosted(type) {
      const from = seen.get(type) ?? 0;
      await page.waitForFunction(
        ([t, n]) => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === t).length > (n as number),
        [type, from] as const,
      );
      const matching = (await posted()).filter((m) => m.type === type);
      seen.set(type, from + 1);
      return matching[from] as Extract<WebviewMessage, { type: typeof type }>;
    },
    uiState: () => page.evaluate('window.__vscodeState'),
    close: () => context.close(),
  };
}

/** A panel state with sensible defaults. */
export function panelState(overrides: Partial<PanelState> = {}): PanelState {
  return {
    view: 'chat',
    settings: { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: '', toolProtocol: 'xml', hasApiKey: false },
    history: [],
    modes: [
      { slug: 'default', name: 'Default' },
      { slug: 'reviewer', name: 'Code reviewer' },
    ],
    mode: 'act',
    modeSlug: 'default',
    mcp: { servers: [], problems: [], configFiles: { global: '/home/user/.config/smith/mcp_settings.json', workspace: '/work/project/.smith/mcp.json' } },
    autoApprove: { readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 },
    ...overrides,
  };
}

/** An open task with sensible defaults. */
export function taskView(messages: readonly UiMessage[], overrides: Partial<TaskView> = {}): TaskView {
  return {
    id: 'task-1',
    messages,
    usage: { inputTokens: 1500, outputTokens: 250, cacheReadTokens: 0, cacheWriteTokens: 0 },
    mode: 'act',
    modeSlug: 'default',
    status: 'idle',
    ...overrides,
  };
}

/** The snapshot message for a task. */
export function snapshotOf(task: TaskView | undefined, overrides: Partial<PanelState> = {}): HostMessage {
  return { type: 'snapshot', state: panelState({ task, ...overrides }) };
}

/** One harness for a suite and, per test, an open panel that must close without logged problems. */
export interface PanelSuite {
  /** The panel of the running test (opened before it, unless the suite opens its own). */
  readonly panel: PanelPage;
  /** Opens the test's panel at a given size (for suites that do not open one per test). */
  open(viewport?: { width: number; height: number }): Promise<PanelPage>;
}

/** Registers the suite's hooks (inside describe); after each test the panel must report no CSP or console problems. */
export function usePanelSuite(options: { openEachTest?: boolean } = {}): PanelSuite {
  let harness: Harness | undefined;
  let panel: PanelPage | undefined;
  before(async () => (harness = await startHarness()));
  after(() => harness?.close());
  if (options.openEachTest ?? true) beforeEach(async () => (panel = await openPanel(harness!)));
  afterEach(async () => {
    if (!panel) return;
    const problems = await panel.problems();
    await panel.close();
    panel = undefined;
    assert.deepEqual(problems, []);
  });
  return {
    get panel() {
      if (!panel) throw new Error('no panel is open in this test');
      return panel;
    },
    open: async (viewport) => (panel = await openPanel(harness!, viewport)),
  };
}
