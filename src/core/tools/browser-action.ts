import type { Frame, Page } from 'playwright-core';
import {
  BROWSER_ACTIONS,
  BrowserActionError,
  PageLoadError,
  performBrowserAction,
  settle,
  type BrowserActionName,
  type BrowserActionRequest,
} from '../browser/browser-actions.js';
import { parseViewport } from '../browser/browser-settings.js';
import { BrowserStartError, type BrowserSession } from '../browser/browser-session.js';
import type { Base64Image } from '../providers/types.js';
import { checkWebAccess } from '../web/web-access.js';
import { isLocalHost, parseWebUrl } from '../web/web-hosts.js';
import type { BrowserFacts, ConsoleLine } from '../../shared/tool-details.js';
import { builtInSpec, mistake, type ToolContext, type ToolHandler, type ToolOutcome } from '../tool-kit/tool-spec.js';

/** New console lines one result shows; the rest are counted ("console" shows them all). */
const CONSOLE_LINES_SHOWN = 50;
/** Characters of the page's accessibility tree a model without vision gets instead of the screenshot. */
const PAGE_TEXT_CHARS = 8_000;

/**
 * browser_action: operates the task's browser; each result shows the page (a screenshot, or its
 * text), new console lines and the URL. Where the page may go is the session's access policy.
 */
export function createBrowserActionTool(session: BrowserSession): ToolHandler {
  return {
    spec: builtInSpec({
      name: 'browser_action',
      description:
        'Operate a web browser to look at and test a web page, e.g. the app you are building (start its dev server with execute_command first). Start with launch and a url; the browser stays open with its page between calls, until close or the end of the task. Each result shows the page after the action (a screenshot when you can see images, else the page text), the console messages and errors logged since the last action, and the current URL. To reload after changing a file, launch the url again.',
      params: [
        {
          name: 'action',
          required: true,
          description: `One of: ${BROWSER_ACTIONS.join(', ')}. scroll_down and scroll_up move by most of a page; console lists every console message of the page so far.`,
        },
        { name: 'url', required: false, description: 'For launch: the URL to open (http or https), e.g. http://localhost:3000.' },
        { name: 'coordinate', required: false, description: 'For click, hover, type: "x,y" in pixels of the last screenshot, at the centre of the element.' },
        {
          name: 'element',
          required: false,
          description:
            "For click, hover, type instead of coordinate: the element's accessible name (a button's or link's text, a field's label or placeholder).",
        },
        { name: 'selector', required: false, description: 'For click, hover, type instead of coordinate: a CSS selector.' },
        {
          name: 'text',
          required: false,
          description: 'For type: the text to type (into the element given, else the focused one). For press: a key or combination, e.g. Enter, Control+A.',
        },
        { name: 'size', required: false, description: 'For resize: WIDTHxHEIGHT, e.g. 1280x800.' },
      ],
      example: '<browser_action>\n<action>click</action>\n<element>Sign in</element>\n</browser_action>',
    }),
    async execute(params, context): Promise<ToolOutcome> {
      const request = parseRequest(params);
      if (typeof request === 'string') return mistake(request);
      if (request.action === 'close') {
        await session.close();
        return { kind: 'result', output: 'The browser is closed.', details: { browser: { action: 'close', console: [], screenshot: false } } };
      }
      if (request.action === 'launch') {
        const url = request.url!;
        // A refused host is never asked about; the browser's proxy judges every request again, redirects included.
        const access = await checkWebAccess(url.hostname, session.access);
        if (!access.allowed && access.refused) return { kind: 'error', error: access.reason, mistake: false };
        const answer = await context.approve({
          summary: `Open ${url.href} in the browser`,
          ...(isLocalHost(url.hostname)
            ? {}
            : { reason: `${url.hostname} is outside this machine: the model will operate a page on the internet and can type into it.` }),
        });
        if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };
      } else if (!session.page) {
        return mistake(`The browser is not open. Start it with action launch and a url, then ${request.action}.`);
      }
      return run(session, request, context);
    },
  };
}

/** Runs a validated action; the browser closes when the task is cancelled mid-action. */
async function run(session: BrowserSession, request: BrowserActionRequest, context: ToolContext): Promise<ToolOutcome> {
  const onAbort = () => void session.close();
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    if (context.signal.aborted) {
      await session.close();
      throw context.signal.reason;
    }
    const page = await session.open();
    if (request.action === 'console') {
      const lines = session.allConsole();
      const output =
        lines.length === 0
          ? 'The page has logged nothing to the console.'
          : `Console messages and errors of the page so far (the last ${lines.length}):\n${consoleText(lines)}`;
      return {
        kind: 'result',
        output: `${output}\n\nCurrent URL: ${page.url()}`,
        details: { browser: { action: 'console', url: page.url(), console: [...lines], screenshot: false } },
      };
    }
    // A click on a link navigates: the new page is waited for (launch waits for its own).
    let navigated = false;
    const onNavigation = (frame: Frame) => {
      if (frame === page.mainFrame()) navigated = true;
    };
    page.on('framenavigated', onNavigation);
    let done: string;
    try {
      done = await performBrowserAction(session, page, request);
    } finally {
      page.off('framenavigated', onNavigation);
    }
    // A link that opened a new tab: the session follows it, and so does the report.
    const shown = session.page ?? page;
    await settle(shown, shown !== page || (navigated && request.action !== 'launch'));
    return await report(session, shown, request.action, done, context);
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason ?? error;
    if (error instanceof BrowserActionError) return mistake(`${error.message}${await pageState(session)}`);
    if (error instanceof BrowserStartError || error instanceof PageLoadError)
      return { kind: 'error', error: `${error.message}${await pageState(session)}`, mistake: false };
    return {
      kind: 'error',
      error: `The browser failed: ${((error as Error).message ?? String(error)).split('\n')[0]}${await pageState(session)}`,
      mistake: false,
    };
  } finally {
    context.signal.removeEventListener('abort', onAbort);
  }
}

/** The result of an action: what was done, the URL, new console lines, and the page as the model can take it. */
async function report(session: BrowserSession, page: Page, action: BrowserActionName, done: string, context: ToolContext): Promise<ToolOutcome> {
  const fresh = session.takeNewConsole();
  const shown = fresh.slice(-CONSOLE_LINES_SHOWN);
  const left = fresh.length - shown.length;
  const said =
    fresh.length === 0
      ? 'No new console messages.'
      : `New console messages and errors:\n${left > 0 ? `(${left} earlier ones left out; action console lists them)\n` : ''}${consoleText(shown)}`;
  const parts = [done, `Current URL: ${page.url()}`, said];
  let images: Base64Image[] | undefined;
  if (context.modelSupportsImages) {
    const shot = await page.screenshot({ type: 'jpeg', quality: 75, timeout: 10_000 });
    images = [{ mimeType: 'image/jpeg', data: shot.toString('base64') }];
    const { width, height } = session.viewport;
    parts.push(`A screenshot of the page (${width}x${height}) is attached; coordinates are its pixels.`);
  } else {
    parts.push(`The page's content (accessibility tree; click, hover or type by an element's name):\n${await pageText(page)}`);
  }
  const facts: BrowserFacts = { action, url: page.url(), console: shown, screenshot: images !== undefined };
  return { kind: 'result', output: parts.join('\n\n'), ...(images ? { images } : {}), details: { browser: facts } };
}

/** The page's accessibility tree (roles, names, text), capped: what a model without vision works from. */
async function pageText(page: Page): Promise<string> {
  const tree = await page
    .locator('body')
    .ariaSnapshot({ timeout: 10_000 })
    .catch(() => '');
  if (tree.trim() === '') return '(The page shows no text.)';
  return tree.length > PAGE_TEXT_CHARS
    ? `${tree.slice(0, PAGE_TEXT_CHARS)}\n[The rest of the page's ${tree.length} characters is left out; scroll to see more.]`
    : tree;
}

/** Where the page is after a failure, and what it logged, so the model can go on from there. */
async function pageState(session: BrowserSession): Promise<string> {
  const page = session.page;
  const fresh = session.takeNewConsole().slice(-CONSOLE_LINES_SHOWN);
  const said = fresh.length > 0 ? `\nNew console messages and errors:\n${consoleText(fresh)}` : '';
  return page ? `\n\nCurrent URL: ${page.url()}${said}` : said;
}

/** Console lines as the model reads them, one a line. */
function consoleText(lines: readonly ConsoleLine[]): string {
  return lines.map((line) => line.text).join('\n');
}

/** Checks the parameters an action needs; returns the request or what is wrong with the call. */
function parseRequest(params: Readonly<Record<string, string>>): BrowserActionRequest | string {
  const action = (params.action ?? '').trim() as BrowserActionName;
  if (!BROWSER_ACTIONS.includes(action)) return `Unknown browser action "${params.action}". Use one of: ${BROWSER_ACTIONS.join(', ')}.`;
  const given = (name: string) => (params[name] !== undefined && params[name]!.trim() !== '' ? params[name]!.trim() : undefined);
  switch (action) {
    case 'launch': {
      if (!given('url')) return 'The launch action needs a url, e.g. <url>http://localhost:3000</url>.';
      const url = parseWebUrl(given('url')!);
      return typeof url === 'string' ? url : { action, url };
    }
    case 'click':
    case 'hover':
    case 'type': {
      const coordinate = given('coordinate');
      const element = given('element');
      const selector = given('selector');
      if (action === 'type' && params.text === undefined) return 'The type action needs the text to type.';
      if (action !== 'type' && !coordinate && !element && !selector)
        return `The ${action} action needs a coordinate ("x,y" from the last screenshot), an element name or a selector.`;
      const point = coordinate ? parsePoint(coordinate) : undefined;
      if (typeof point === 'string') return point;
      return {
        action,
        ...(point ? { point } : {}),
        ...(element ? { element } : {}),
        ...(selector ? { selector } : {}),
        ...(params.text !== undefined ? { text: params.text } : {}),
      };
    }
    case 'press':
      return given('text') ? { action, text: given('text')! } : 'The press action needs a key in text, e.g. <text>Enter</text>.';
    case 'resize': {
      const viewport = parseViewport(given('size') ?? '');
      return typeof viewport === 'string' ? `The resize action needs a size: ${viewport}.` : { action, viewport };
    }
    default:
      return { action };
  }
}

function parsePoint(text: string): { x: number; y: number } | string {
  const match = /^\(?\s*(\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*\)?$/.exec(text);
  if (!match) return `"${text}" is not a coordinate; give "x,y" in pixels of the last screenshot, e.g. 450,300.`;
  return { x: Math.round(Number(match[1])), y: Math.round(Number(match[2])) };
}
