// browser_action in real Chromium (Debian's, headless) against a small app on 127.0.0.1.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { findBrowserExecutable } from '../../../src/core/browser/browser-settings.js';
import { BrowserSession } from '../../../src/core/browser/browser-session.js';
import { createBrowserActionTool } from '../../../src/core/tools/browser-action.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { startWebAppServer, WEB_APP_FILES, type WebAppServer } from '../../fixtures/web-app-server.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

function output(outcome: ToolOutcome): string {
  if (outcome.kind === 'result') return outcome.output;
  if (outcome.kind === 'error') return `ERROR: ${outcome.error}`;
  return outcome.kind;
}

describe('browser_action', () => {
  let server: WebAppServer;
  let root: string;
  const sessions: BrowserSession[] = [];
  const browserTool = (session = new BrowserSession()) => {
    sessions.push(session);
    return createBrowserActionTool(session);
  };
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'smith-browser-'));
    for (const [name, text] of Object.entries(WEB_APP_FILES)) writeFileSync(join(root, name), text);
    server = await startWebAppServer(root);
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.close();
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('launch asks, then click, type and press operate the page; each result has the URL, new console lines and a screenshot', async () => {
    const harness = new ToolHarness(root);
    harness.modelSupportsImages = true;
    harness.answers = [{ approved: true }];
    const tool = browserTool();
    const launched = await harness.run(tool, { action: 'launch', url: server.url });
    assert.equal(launched.kind, 'result', output(launched));
    assert.deepEqual(
      harness.asked.map((a) => [a.summary, a.reason]),
      [[`Open ${server.url} in the browser`, undefined]],
    );
    assert.match(
      output(launched),
      new RegExp(
        `^Opened ${server.url}\\.\\n\\nCurrent URL: ${server.url}\\n\\nNew console messages and errors:\\nlog: app started \\(app\\.js:10\\)\\nuncaught TypeError: window\\.setupFooter is not a function \\(app\\.js:11\\)`,
      ),
    );
    assert.equal(launched.kind === 'result' ? launched.images?.[0]?.mimeType : undefined, 'image/jpeg');
    assert.deepEqual(launched.kind === 'result' ? launched.details?.browser : undefined, {
      action: 'launch',
      url: server.url,
      console: [
        { level: 'log', text: 'log: app started (app.js:10)' },
        { level: 'error', text: 'uncaught TypeError: window.setupFooter is not a function (app.js:11)' },
      ],
      screenshot: true,
    });

    const clicked = await harness.run(tool, { action: 'click', element: 'Increment' });
    assert.match(output(clicked), /^Clicked "Increment"\.\n\nCurrent URL: .*\n\nNo new console messages\./);
    const typed = await harness.run(tool, { action: 'type', element: 'Your name', text: 'Ada' });
    assert.match(output(typed), /^Typed "Ada" into the <input> "name"\./);
    await harness.run(tool, { action: 'press', text: 'Enter' });

    // A model without vision gets the page's text instead of the screenshot.
    harness.modelSupportsImages = false;
    const shown = await harness.run(tool, { action: 'screenshot' });
    assert.equal(shown.kind === 'result' ? shown.images : 'no result', undefined);
    assert.match(output(shown), /accessibility tree[\s\S]*Count: 1[\s\S]*Hello, Ada!/);

    const consoleAll = await harness.run(tool, { action: 'console' });
    assert.match(output(consoleAll), /^Console messages and errors of the page so far \(the last 2\):\nlog: app started/);
    const closed = await harness.run(tool, { action: 'close' });
    assert.equal(output(closed), 'The browser is closed.');
    const afterClose = await harness.run(tool, { action: 'click', element: 'Increment' });
    assert.match(output(afterClose), /^ERROR: The browser is not open\. Start it with action launch and a url, then click\./);
  });

  test('each console line is logged with its level: the console method, error for an uncaught error', async () => {
    writeFileSync(
      join(root, 'levels.html'),
      `<script>
console.log('plain'); console.info('fyi'); console.warn('careful'); console.error('broken'); console.debug('detail');
console.log('error: only the words of an error'); console.table([1]);
setTimeout(() => { throw new RangeError('too far'); });
</script>`,
    );
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    const tool = browserTool();
    await harness.run(tool, { action: 'launch', url: `${server.url}levels.html` });
    const all = await harness.run(tool, { action: 'console' });
    const lines = all.kind === 'result' ? (all.details?.browser?.console ?? []) : [];
    assert.deepEqual(
      lines.map((line) => [line.level, line.text.replace(/ \(levels\.html:\d+\)$/, '')]),
      [
        ['log', 'log: plain'],
        ['info', 'info: fyi'],
        ['warn', 'warning: careful'],
        ['error', 'error: broken'],
        ['debug', 'debug: detail'],
        ['log', 'log: error: only the words of an error'],
        ['log', 'table: [1]'],
        ['error', 'uncaught RangeError: too far'],
      ],
      output(all),
    );
    // The model reads the same lines, one a line.
    assert.match(output(all), /\nlog: plain[^\n]*\ninfo: fyi[^\n]*\nwarning: careful/);
  });

  test('clicks by coordinate and selector, hover, scroll and resize', async () => {
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    const tool = browserTool();
    await harness.run(tool, { action: 'launch', url: server.url });
    assert.match(output(await harness.run(tool, { action: 'click', selector: '#increment' })), /^Clicked the element matching "#increment"\./);
    assert.match(output(await harness.run(tool, { action: 'hover', coordinate: '5,5' })), /^Moved the mouse over /);
    assert.match(output(await harness.run(tool, { action: 'click', coordinate: '890,590' })), /^Clicked an empty part of the page at \(890, 590\)\./);
    assert.match(output(await harness.run(tool, { action: 'scroll_down' })), /^Scrolled down; the page is now scrolled 0 pixels from its top\./);
    assert.match(output(await harness.run(tool, { action: 'resize', size: '1280x800' })), /^Resized the page to 1280x800\./);
    assert.match(output(await harness.run(tool, { action: 'screenshot' })), /Count: 1/);
  });

  test('a click on nothing, bad parameters and a page that does not load are clear errors; the browser goes on', async () => {
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    const tool = browserTool();
    await harness.run(tool, { action: 'launch', url: server.url });
    const nothing = await harness.run(tool, { action: 'click', element: 'Delete everything' });
    assert.deepEqual(nothing.kind === 'error' ? nothing.mistake : undefined, true);
    assert.match(output(nothing), /^ERROR: No element named "Delete everything" on the page .*\n\nCurrent URL: http:\/\/127\.0\.0\.1/);
    assert.match(output(await harness.run(tool, { action: 'click', selector: '#nope' })), /^ERROR: No element on the page matches the selector "#nope"\./);
    assert.match(output(await harness.run(tool, { action: 'click', coordinate: '5000,10' })), /^ERROR: \(5000, 10\) is outside the 900x600 page/);
    assert.match(output(await harness.run(tool, { action: 'press', text: 'NotAKey' })), /^ERROR: Could not press "NotAKey": Unknown key: "NotAKey"/);
    assert.match(output(await harness.run(tool, { action: 'fly' })), /^ERROR: Unknown browser action "fly"\. Use one of: launch, click,/);
    assert.match(output(await harness.run(tool, { action: 'click' })), /^ERROR: The click action needs a coordinate/);

    const down = await startWebAppServer(root);
    await down.close();
    const refused = await harness.run(tool, { action: 'launch', url: down.url });
    assert.deepEqual(refused.kind === 'error' ? refused.mistake : undefined, false);
    assert.match(output(refused), /^ERROR: http:\/\/127\.0\.0\.1:\d+\/ did not load: net::ERR_CONNECTION_REFUSED/);
    // The browser is still usable.
    assert.match(output(await harness.run(tool, { action: 'launch', url: server.url })), /^Opened /);
  });

  test('a browser that cannot start, a denied host and a non-local URL in the approval', async () => {
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    const broken = await harness.run(browserTool(new BrowserSession({ executablePath: '/nonexistent/chromium' })), { action: 'launch', url: server.url });
    assert.deepEqual(broken, {
      kind: 'error',
      error: 'The browser could not be started: the browser executable /nonexistent/chromium (from the settings) does not exist or cannot be run.',
      mistake: false,
    });
    const notABrowser = await harness.run(browserTool(new BrowserSession({ executablePath: '/bin/false' })), { action: 'launch', url: server.url });
    assert.match(output(notABrowser), /^ERROR: The browser \/(usr\/)?bin\/false could not be started: /);

    const denied = await harness.run(browserTool(new BrowserSession({}, { deniedDomains: ['*.example.com'] })), {
      action: 'launch',
      url: 'https://docs.example.com/',
    });
    assert.match(output(denied), /^ERROR: docs\.example\.com is on the user's deny list for web tools \(entry "\*\.example\.com"\)/);

    const asking = new ToolHarness(root);
    asking.answers = [{ approved: false, feedback: 'only local pages' }];
    const rejected = await asking.run(browserTool(), { action: 'launch', url: 'https://example.org/' });
    assert.deepEqual(rejected, { kind: 'rejected', feedback: 'only local pages' });
    assert.match(asking.asked[0]?.reason ?? '', /^example\.org is outside this machine/);
  });

  test('a link click waits for the new page; a page whose load never ends is shown as it is', async () => {
    writeFileSync(join(root, 'links.html'), '<!doctype html><title>Links</title><a href="index.html">Counter</a>');
    writeFileSync(join(root, 'slow.html'), '<!doctype html><title>Slow</title><p>Text first</p><img src="/hang" alt="stalled">');
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    const tool = browserTool();
    await harness.run(tool, { action: 'launch', url: `${server.url}links.html` });
    const followed = await harness.run(tool, { action: 'click', element: 'Counter' });
    assert.match(
      output(followed),
      new RegExp(`^Clicked "Counter"\\.\\n\\nCurrent URL: ${server.url}index\\.html\\n\\nNew console messages and errors:\\nlog: app started`),
    );
    writeFileSync(join(root, 'tab.html'), '<!doctype html><title>Tab</title><a href="index.html" target="_blank">New tab</a>');
    await harness.run(tool, { action: 'launch', url: `${server.url}tab.html` });
    const opened = await harness.run(tool, { action: 'click', element: 'New tab' });
    assert.match(output(opened), new RegExp(`^Clicked "New tab"\\.\\n\\nCurrent URL: ${server.url}index\\.html\\n`));
    const slow = await harness.run(tool, { action: 'launch', url: `${server.url}slow.html` });
    assert.match(
      output(slow),
      /^Opened http:\/\/127\.0\.0\.1:\d+\/slow\.html; it was still loading after 5 s \(something on it does not finish\), so it is shown as it is\.[\s\S]*Text first/,
    );
  });

  test('a browser already running is used over CDP and left running; an endpoint that does not answer is a clear error', async () => {
    const executable = await findBrowserExecutable({});
    assert.equal(typeof executable, 'string');
    const profile = mkdtempSync(join(tmpdir(), 'smith-cdp-'));
    // Its own process group, so that Chromium's helper processes end with it before the profile is removed.
    const remote = spawn(executable as string, ['--headless=new', '--no-sandbox', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
      detached: true,
    });
    try {
      let said = '';
      const endpoint = await new Promise<string>((resolve) =>
        remote.stderr.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          const found = /DevTools listening on (ws:\S+)/.exec(said);
          if (found) resolve(found[1]!);
        }),
      );
      const harness = new ToolHarness(root);
      harness.policy = { ...harness.policy, browser: true };
      const tool = browserTool(new BrowserSession({ cdpEndpoint: endpoint }));
      assert.match(
        output(await harness.run(tool, { action: 'launch', url: server.url })),
        /^Opened [\s\S]*uncaught TypeError: window\.setupFooter is not a function/,
      );
      assert.match(output(await harness.run(tool, { action: 'click', element: 'Increment' })), /Count: 1/);
      assert.equal(output(await harness.run(tool, { action: 'close' })), 'The browser is closed.');
      // Only disconnected: the user's browser still takes connections.
      const again = await chromium.connectOverCDP(endpoint);
      await again.close();
      assert.equal(remote.exitCode, null);

      const nobody = await harness.run(browserTool(new BrowserSession({ cdpEndpoint: 'http://127.0.0.1:9/' })), { action: 'launch', url: server.url });
      assert.deepEqual(nobody.kind === 'error' ? nobody.mistake : undefined, false);
      assert.match(output(nobody), /^ERROR: Could not connect to the browser at http:\/\/127\.0\.0\.1:9\/: /);
    } finally {
      const exited = new Promise((resolve) => (remote.exitCode !== null ? resolve(undefined) : remote.once('exit', resolve)));
      process.kill(-remote.pid!, 'SIGTERM');
      await exited;
      // A helper may still be flushing its files as the group ends.
      rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    }
  });

  test('cancelling an action closes the browser', async () => {
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    const session = new BrowserSession();
    const tool = browserTool(session);
    await harness.run(tool, { action: 'launch', url: server.url });
    const abort = new AbortController();
    const hung = server.nextHang();
    const loading = harness.run(tool, { action: 'launch', url: `${server.url}hang` }, abort.signal);
    await hung;
    abort.abort(new Error('cancelled'));
    await assert.rejects(loading, /cancelled/);
    assert.equal(session.page, undefined);
  });
});
