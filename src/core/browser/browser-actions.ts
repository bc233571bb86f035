import type { Locator, Page } from 'playwright-core';
import type { BrowserSession } from './browser-session.js';
import type { Viewport } from './browser-settings.js';
import { PROXY_ERROR_HEADER } from './web-guard-proxy.js';

/** What browser_action can do, in the order the model is told. */
export const BROWSER_ACTIONS = ['launch', 'click', 'type', 'press', 'hover', 'scroll_down', 'scroll_up', 'resize', 'screenshot', 'console', 'close'] as const;
export type BrowserActionName = (typeof BROWSER_ACTIONS)[number];

/** One validated action. */
export interface BrowserActionRequest {
  readonly action: BrowserActionName;
  readonly url?: URL;
  readonly point?: { readonly x: number; readonly y: number };
  /** An accessible name: a button's or link's text, a field's label or placeholder. */
  readonly element?: string;
  readonly selector?: string;
  readonly text?: string;
  readonly viewport?: Viewport;
}

/** The action could not be done as asked (nothing at that place, an unknown key): the model's to fix. */
export class BrowserActionError extends Error {}

/** How long an action waits for its element to be ready (visible, enabled) before it fails. */
const ACTION_TIMEOUT_MS = 5_000;
const NAVIGATION_TIMEOUT_MS = 30_000;
/**
 * How long Smith waits for a page's load event once its document is there: a resource that never
 * finishes (a long poll, a stalled image) must not hold up every action.
 */
const LOAD_WAIT_MS = 5_000;

/** Roles whose elements the model can name when it clicks, types or hovers. */
const NAMED_ROLES = [
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'menuitem',
  'tab',
  'option',
  'switch',
  'slider',
  'spinbutton',
] as const;

/** Does one action on the session's page and returns one sentence saying what was done. */
export async function performBrowserAction(session: BrowserSession, page: Page, request: BrowserActionRequest): Promise<string> {
  switch (request.action) {
    case 'launch':
      return navigate(page, request.url!);
    case 'click': {
      const target = await findTarget(page, request, session.viewport);
      if ('x' in target) {
        const what = await describePoint(page, target);
        await page.mouse.click(target.x, target.y);
        return `Clicked ${what} at (${target.x}, ${target.y}).`;
      }
      await target.locator.click({ timeout: ACTION_TIMEOUT_MS }).catch(actionFailed('click', target.label));
      return `Clicked ${target.label}.`;
    }
    case 'hover': {
      const target = await findTarget(page, request, session.viewport);
      if ('x' in target) {
        await page.mouse.move(target.x, target.y);
        return `Moved the mouse over ${await describePoint(page, target)} at (${target.x}, ${target.y}).`;
      }
      await target.locator.hover({ timeout: ACTION_TIMEOUT_MS }).catch(actionFailed('hover over', target.label));
      return `Moved the mouse over ${target.label}.`;
    }
    case 'type': {
      if (request.element !== undefined || request.selector !== undefined || request.point !== undefined) {
        const target = await findTarget(page, request, session.viewport);
        if ('x' in target) await page.mouse.click(target.x, target.y);
        else await target.locator.click({ timeout: ACTION_TIMEOUT_MS }).catch(actionFailed('click', target.label));
      }
      await page.keyboard.type(request.text!);
      return `Typed ${JSON.stringify(request.text)} into ${await describeFocus(page)}.`;
    }
    case 'press':
      await page.keyboard.press(request.text!).catch((error: unknown) => {
        throw new BrowserActionError(
          `Could not press ${JSON.stringify(request.text)}: ${firstLine(error)}. Use key names such as Enter, Tab, Escape, ArrowDown, Backspace, or combinations such as Control+A.`,
        );
      });
      return `Pressed ${request.text}.`;
    case 'scroll_down':
    case 'scroll_up': {
      const sign = request.action === 'scroll_down' ? 1 : -1;
      await page.mouse.wheel(0, sign * Math.round(session.viewport.height * 0.8));
      const at = await page.evaluate(
        () => new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(Math.round(window.scrollY))))),
      );
      return `Scrolled ${request.action === 'scroll_down' ? 'down' : 'up'}; the page is now scrolled ${at} pixels from its top.`;
    }
    case 'resize':
      await session.resize(request.viewport!);
      return `Resized the page to ${request.viewport!.width}x${request.viewport!.height}.`;
    case 'screenshot':
      return 'Took a screenshot.';
    case 'console':
    case 'close':
      return '';
  }
}

/**
 * Waits until what the action started has settled: a page it navigated to has loaded (`navigated`),
 * and the DOM changes of its handlers are painted.
 */
export async function settle(page: Page, navigated: boolean): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (navigated || attempt > 0) await page.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => {});
    // Two animation frames: handlers that ran on the click have updated the DOM and it was painted.
    const painted = await page
      .evaluate(() => new Promise<boolean>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))))
      .catch(() => false);
    // False: a navigation replaced the document mid-wait; wait for the new one.
    if (painted) return;
  }
}

async function navigate(page: Page, url: URL): Promise<string> {
  let response: Awaited<ReturnType<Page['goto']>> | undefined;
  for (let attempt = 0; ; attempt++) {
    // Leaving Chromium's error page for a working URL is reported as interrupted by the error page itself.
    if (page.url().startsWith('chrome-error://')) await page.goto('about:blank').catch(() => {});
    try {
      response = await page.goto(url.href, { waitUntil: 'domcontentloaded', timeout: NAVIGATION_TIMEOUT_MS });
      break;
    } catch (error) {
      await page.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => {});
      const interrupted = /interrupted by another navigation to "chrome-error:/.test(firstLine(error));
      // The error page of an earlier failure commits late: it may cut in after the page arrived, or before.
      if (interrupted && page.url() === url.href) break;
      if (interrupted && attempt === 0) continue;
      throw new PageLoadError(`${url.href} did not load: ${firstLine(error)}`);
    }
  }
  // Every request passes the web guard proxy; its own answer means the page never left this machine.
  const proxyError = response?.headers()[PROXY_ERROR_HEADER];
  if (proxyError !== undefined) throw new PageLoadError(`${url.href} did not load: ${decodeURIComponent(proxyError)}`);
  const loaded = await page
    .waitForLoadState('load', { timeout: LOAD_WAIT_MS })
    .then(() => true)
    .catch(() => false);
  const status = response?.status();
  const answered = status !== undefined && status >= 400 ? `; the server answered HTTP ${status}` : '';
  const loading = loaded ? '' : `; it was still loading after ${LOAD_WAIT_MS / 1000} s (something on it does not finish), so it is shown as it is`;
  return `Opened ${url.href}${answered}${loading}.`;
}

/** A page that did not load (the server is down, a DNS name that does not resolve): not the model's mistake. */
export class PageLoadError extends Error {}

type Target = { readonly x: number; readonly y: number } | { readonly locator: Locator; readonly label: string };

async function findTarget(page: Page, request: BrowserActionRequest, viewport: Viewport): Promise<Target> {
  if (request.point) {
    const { x, y } = request.point;
    if (x < 0 || y < 0 || x >= viewport.width || y >= viewport.height) {
      throw new BrowserActionError(
        `(${x}, ${y}) is outside the ${viewport.width}x${viewport.height} page; coordinates are pixels of the last screenshot, from its top left corner.`,
      );
    }
    return request.point;
  }
  if (request.selector !== undefined) {
    const locator = page.locator(request.selector);
    const count = await locator.count().catch((error: unknown) => {
      throw new BrowserActionError(`The selector ${JSON.stringify(request.selector)} is not valid: ${firstLine(error)}`);
    });
    if (count === 0) throw new BrowserActionError(`No element on the page matches the selector ${JSON.stringify(request.selector)}.`);
    return { locator: await preferVisible(locator), label: `the element matching ${JSON.stringify(request.selector)}` };
  }
  const name = request.element!;
  for (const exact of [true, false]) {
    const options = { name, exact };
    let locator = NAMED_ROLES.map((role) => page.getByRole(role, options)).reduce((all, next) => all.or(next));
    locator = locator.or(page.getByLabel(name, { exact })).or(page.getByPlaceholder(name, { exact }));
    if ((await locator.count()) > 0) return { locator: await preferVisible(locator), label: `"${name}"` };
  }
  throw new BrowserActionError(
    `No element named ${JSON.stringify(name)} on the page (names are a button's or link's text, a field's label or placeholder). Look at the page again, or give a selector or a coordinate.`,
  );
}

/** The first visible match: a name often also fits a hidden copy (a mobile menu, a template). */
async function preferVisible(locator: Locator): Promise<Locator> {
  const visible = locator.filter({ visible: true });
  return (await visible.count()) > 0 ? visible.first() : locator.first();
}

/** What is drawn at a point, e.g. `the button "Save"`, so the model learns what its click hit. */
async function describePoint(page: Page, point: { readonly x: number; readonly y: number }): Promise<string> {
  return page.evaluate(({ x, y }) => {
    const element = document.elementFromPoint(x, y);
    if (!element || element === document.body || element === document.documentElement) return 'an empty part of the page';
    const text = (element.getAttribute('aria-label') || element.textContent || element.getAttribute('placeholder') || '')
      .trim()
      .replace(/\s+/g, ' ')
      .slice(0, 60);
    return `the <${element.tagName.toLowerCase()}>${text ? ` "${text}"` : ''}`;
  }, point);
}

/** The element that has the keyboard focus, as the model can recognise it. */
async function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'the page (no field has the focus)';
    const label = element.getAttribute('aria-label') || element.getAttribute('name') || element.getAttribute('placeholder') || element.id;
    return `the <${element.tagName.toLowerCase()}>${label ? ` "${label}"` : ''}`;
  });
}

function actionFailed(verb: string, label: string): (error: unknown) => never {
  return (error) => {
    throw new BrowserActionError(`Could not ${verb} ${label}: ${firstLine(error)}`);
  };
}

function firstLine(error: unknown): string {
  return ((error as Error).message ?? String(error))
    .split('\n')[0]!
    .replace(/^\w+\.\w+: /, '')
    .trim();
}
