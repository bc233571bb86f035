import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import type { ConsoleLevel, ConsoleLine } from '../../shared/tool-details.js';
import type { WebAccessPolicy } from '../web/web-access.js';
import { DEFAULT_VIEWPORT, findBrowserExecutable, type BrowserSettings, type Viewport } from './browser-settings.js';
import { WebGuardProxy } from './web-guard-proxy.js';

/** Console lines kept per task; older ones are dropped first. */
const CONSOLE_LIMIT = 200;
/** A console line longer than this is cut (a dumped object can be megabytes). */
const CONSOLE_LINE_CHARS = 1_000;

/** Why the browser could not be opened: said to the model as is. */
export class BrowserStartError extends Error {}

/**
 * The one browser of a task: started on the first launch, kept across actions (so the page keeps
 * its state), closed when the task ends or is cancelled. Collects what the page logs.
 */
export class BrowserSession {
  private browser: Browser | undefined;
  private context: BrowserContext | undefined;
  private current: Page | undefined;
  private starting: Promise<Page> | undefined;
  private readonly consoleLines: ConsoleLine[] = [];
  /** Console lines already reported to the model. */
  private reported = 0;
  private readonly watched = new WeakSet<Page>();
  private dropped = 0;
  private viewportSize: Viewport;
  private proxy: WebGuardProxy | undefined;

  /**
   * `access`: where the page may go, by a link, a redirect or a request of its own; every request
   * of the browser passes a WebGuardProxy that judges it so.
   */
  constructor(
    private readonly settings: BrowserSettings = {},
    readonly access: WebAccessPolicy = {},
  ) {
    this.viewportSize = settings.viewport ?? DEFAULT_VIEWPORT;
  }

  /** The page, when the browser is open. */
  get page(): Page | undefined {
    return this.current;
  }

  get viewport(): Viewport {
    return this.viewportSize;
  }

  /** Starts the browser (once) and returns its page. */
  async open(): Promise<Page> {
    if (this.current && !this.current.isClosed()) return this.current;
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Changes the page's size; later screenshots have it too. */
  async resize(viewport: Viewport): Promise<void> {
    this.viewportSize = viewport;
    await this.current?.setViewportSize({ width: viewport.width, height: viewport.height });
  }

  /** Console lines and uncaught errors not reported yet (marks them reported). */
  takeNewConsole(): ConsoleLine[] {
    const fresh = this.consoleLines.slice(Math.max(0, this.reported - this.dropped));
    this.reported = this.dropped + this.consoleLines.length;
    return fresh;
  }

  /** Every console line kept (the last CONSOLE_LIMIT). */
  allConsole(): readonly ConsoleLine[] {
    this.reported = this.dropped + this.consoleLines.length;
    return [...this.consoleLines];
  }

  /** Closes the page and the browser (a remote browser is only disconnected from). Safe to call twice. */
  async close(): Promise<void> {
    const { browser, context, proxy } = this;
    this.browser = undefined;
    this.context = undefined;
    this.current = undefined;
    this.proxy = undefined;
    await context?.close().catch(() => {});
    await browser?.close().catch(() => {});
    await proxy?.close();
  }

  private async start(): Promise<Page> {
    await this.close();
    let chromium: typeof import('playwright-core').chromium;
    try {
      ({ chromium } = await import('playwright-core'));
    } catch (error) {
      throw new BrowserStartError(`The browser could not be started: the playwright-core package Smith drives it with is missing (${firstLine(error)}).`);
    }
    let browser: Browser;
    if (this.settings.cdpEndpoint) {
      try {
        browser = await chromium.connectOverCDP(this.settings.cdpEndpoint, { timeout: 30_000 });
      } catch (error) {
        throw new BrowserStartError(`Could not connect to the browser at ${this.settings.cdpEndpoint}: ${firstLine(error)}`);
      }
    } else {
      const executable = await findBrowserExecutable(this.settings);
      if (typeof executable !== 'string') throw new BrowserStartError(`The browser could not be started: ${executable.problem}.`);
      try {
        // WebRTC could otherwise send UDP around the proxy.
        browser = await chromium.launch({
          executablePath: executable,
          headless: !this.settings.headed,
          timeout: 30_000,
          args: ['--force-webrtc-ip-handling-policy=disable_non_proxied_udp'],
        });
      } catch (error) {
        throw new BrowserStartError(`The browser ${executable} could not be started: ${firstLine(error)}`);
      }
    }
    browser.on('disconnected', () => {
      if (this.browser !== browser) return;
      this.browser = undefined;
      this.context = undefined;
      this.current = undefined;
    });
    const { width, height } = this.viewportSize;
    const proxy = await WebGuardProxy.start(this.access, (target, reason) => this.log('log', `blocked: ${target}: ${reason}`));
    let context: BrowserContext;
    try {
      // Playwright sends loopback through a context's proxy too (it adds <-loopback> to the bypass list).
      context = await browser.newContext({ viewport: { width, height }, proxy: { server: proxy.url } });
    } catch (error) {
      await proxy.close();
      await browser.close().catch(() => {});
      throw error;
    }
    this.proxy = proxy;
    // One page per task, so every result shows where the action led: links meant for a new tab and
    // window.open() load in the same page. A tab opened some other way is followed.
    await context.addInitScript(SAME_TAB_SCRIPT);
    context.on('page', (page) => this.watch(page));
    this.browser = browser;
    this.context = context;
    const page = await context.newPage();
    this.watch(page);
    return page;
  }

  private watch(page: Page): void {
    this.current = page;
    // The context announces the page newPage() made too; one set of listeners per page.
    if (this.watched.has(page)) return;
    this.watched.add(page);
    page.on('console', (message) => {
      // Chromium asks every site for /favicon.ico; its 404 says nothing about the app.
      if (!message.location().url.endsWith('/favicon.ico')) this.log(consoleLevel(message.type()), `${message.type()}: ${message.text()}${where(message)}`);
    });
    page.on('pageerror', (error) => this.log('error', `uncaught ${error.name || 'error'}: ${error.message}${stackPlace(error.stack)}`));
    page.on('dialog', (dialog) => {
      this.log('log', `dialog (${dialog.type()}): ${dialog.message()} — accepted`);
      void dialog.accept().catch(() => {});
    });
    page.on('close', () => {
      if (this.current === page) this.current = this.context?.pages().at(-1);
    });
  }

  private log(level: ConsoleLevel, line: string): void {
    this.consoleLines.push({ level, text: line.length > CONSOLE_LINE_CHARS ? `${line.slice(0, CONSOLE_LINE_CHARS)}… [${line.length} characters]` : line });
    if (this.consoleLines.length > CONSOLE_LIMIT) {
      this.consoleLines.shift();
      this.dropped++;
    }
  }
}

/** Runs in every page before its own scripts: see start(). */
const SAME_TAB_SCRIPT = `
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[target]') : null;
  if (link && link.target !== '_self') link.target = '_self';
}, true);
window.open = (url) => {
  if (url !== undefined && String(url) !== '') location.href = String(url);
  return null;
};
`;

/** The level of a console message by the method that logged it (`console.table`, `console.dir`… log). */
function consoleLevel(type: string): ConsoleLevel {
  switch (type) {
    case 'error':
      return 'error';
    case 'warning':
      return 'warn';
    case 'info':
      return 'info';
    case 'debug':
      return 'debug';
    default:
      return 'log';
  }
}

/** " (app.js:12)" for a console message with a source place. */
function where(message: ConsoleMessage): string {
  const { url, lineNumber } = message.location();
  if (!url) return '';
  return ` (${url.split('/').pop() || url}:${lineNumber + 1})`;
}

/** The first frame of an error's stack, which is where the page's code failed. */
function stackPlace(stack: string | undefined): string {
  const frame = stack?.split('\n').find((line) => line.trim().startsWith('at '));
  const match = frame && /\(?([^\s()]+):(\d+):\d+\)?\s*$/.exec(frame);
  return match ? ` (${match[1]!.split('/').pop()}:${match[2]})` : '';
}

function firstLine(error: unknown): string {
  return ((error as Error).message ?? String(error)).split('\n')[0]!.trim();
}
