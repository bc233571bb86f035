// The CLI drives real Chromium (headless) through browser_action against an app on 127.0.0.1: it
// launches, clicks, types, reads the console error, fixes the file, reloads and sees the fix; and
// web_fetch reads an article as Markdown.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { startWebAppServer, WEB_APP_FILES, type WebAppServer } from '../../fixtures/web-app-server.js';

const call = (params: Record<string, string>) =>
  `<browser_action>\n${Object.entries(params)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('\n')}\n</browser_action>`;

describe('smith CLI: browser_action and web_fetch', () => {
  const fx = useAgentFixture();
  let app: WebAppServer;
  beforeEach(async () => {
    for (const [name, text] of Object.entries(WEB_APP_FILES)) fx.ws.write(name, text);
    app = await startWebAppServer(fx.ws.root);
  });
  afterEach(() => app.close());

  test('launch, click, type, read the console error, fix the file, reload and see the fix', async () => {
    fx.server.enqueue(
      { text: call({ action: 'launch', url: app.url }) },
      { text: call({ action: 'click', element: 'Increment' }) },
      { text: call({ action: 'type', element: 'Your name', text: 'Ada' }) },
      { text: call({ action: 'press', text: 'Enter' }) },
      { text: call({ action: 'console' }) },
      { text: '<replace_in_file>\n<path>app.js</path>\n<diff>\n------- SEARCH\nwindow.setupFooter();\n=======\n+++++++ REPLACE\n</diff>\n</replace_in_file>' },
      { text: call({ action: 'launch', url: app.url }) },
      { text: '<attempt_completion>\n<result>Fixed the script error.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--max-iterations', '10', 'Check the app and fix what is broken'], timeoutMs: 120_000 });
    assert.equal(run.code, 0, run.stderr);
    const results = fx.server.requests.slice(1).map(lastUserText);
    assert.match(
      results[0]!,
      /Opened http:\/\/127\.0\.0\.1:\d+\/\.[\s\S]*New console messages and errors:\nlog: app started \(app\.js:10\)\nuncaught TypeError: window\.setupFooter is not a function \(app\.js:11\)/,
    );
    assert.match(results[1]!, /Clicked "Increment"\.[\s\S]*No new console messages\.[\s\S]*Count: 1/);
    assert.match(results[2]!, /Typed "Ada" into the <input> "name"/);
    assert.match(results[3]!, /Pressed Enter\.[\s\S]*Hello, Ada!/);
    assert.match(results[4]!, /Console messages and errors of the page so far[\s\S]*window\.setupFooter is not a function/);
    assert.doesNotMatch(readFileSync(join(fx.ws.root, 'app.js'), 'utf8'), /setupFooter/);
    // After the fix the page loads without the error, and starts afresh.
    assert.match(results[6]!, /Opened [\s\S]*New console messages and errors:\nlog: app started \(app\.js:10\)\n\n[\s\S]*Count: 0/);
    assert.doesNotMatch(results[6]!, /setupFooter/);
    // The progress lines name each action and what the page logged.
    assert.match(run.stderr, /▸ browser_action launch http:\/\/127\.0\.0\.1:\d+\/\n {2}http:\/\/127\.0\.0\.1:\d+\/ · 2 console messages\n/);
    assert.match(run.stderr, /▸ browser_action click Increment\n {2}http:\/\/127\.0\.0\.1:\d+\/ · no new console messages\n/);
  });

  test('a vision model gets each screenshot as an image; a bad browser path and a page that does not load are clear errors', async () => {
    const down = await startWebAppServer(fx.ws.root);
    await down.close();
    fx.server.enqueue(
      { text: call({ action: 'launch', url: app.url }) },
      { text: call({ action: 'launch', url: down.url }) },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--vision', 'Look at the app'], timeoutMs: 120_000 });
    assert.equal(run.code, 0, run.stderr);
    const second = fx.server.requestAt(1).body.messages as Array<{ role: string; content: unknown }>;
    const images = second.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p: { type: string }) => p.type === 'image_url');
    assert.equal(images.length, 1);
    assert.match((images[0] as { image_url: { url: string } }).image_url.url, /^data:image\/jpeg;base64,\/9j\//);
    assert.match(lastUserText(fx.server.requestAt(2)), /did not load: net::ERR_CONNECTION_REFUSED/);

    fx.server.enqueue({ text: call({ action: 'launch', url: app.url }) }, { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' });
    const broken = await runCli({ args: [...fx.cliArgs(), '--yes', '--browser-path', '/nonexistent/chromium', 'Look at the app'], timeoutMs: 60_000 });
    assert.equal(broken.code, 0, broken.stderr);
    assert.match(
      lastUserText(fx.server.requests.at(-1)!),
      /The browser could not be started: the browser executable \/nonexistent\/chromium \(from the settings\) does not exist or cannot be run\./,
    );
  });

  test('without --yes a launch asks on the terminal, naming a page outside this machine; a rejection reaches the model', async () => {
    fx.server.enqueue(
      { text: call({ action: 'launch', url: 'https://example.org/' }) },
      { text: '<attempt_completion>\n<result>Left it.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...fx.cliArgs(), 'Look at example.org'], answers: ['n'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Open https:\/\/example\.org\/ in the browser/);
    assert.match(run.stderr, /example\.org is outside this machine/);
    assert.match(lastUserText(fx.server.requestAt(1)), /The user denied this operation\./);
  });

  test('web_fetch of an article gives clean Markdown; a denied host is refused; bad flags are usage errors', async () => {
    fx.server.enqueue(
      { text: `<web_fetch>\n<url>${app.url}article</url>\n</web_fetch>` },
      { text: '<attempt_completion>\n<result>Read it.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Summarise the release notes'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    const fetched = lastUserText(fx.server.requestAt(1));
    assert.match(fetched, /# Release notes \| Example\n\nSource: http:\/\/127\.0\.0\.1:\d+\/article\n\n## Version 2\.0 is out/);
    assert.doesNotMatch(fetched, /TRACKER-CODE|Cookie settings/);

    fx.server.enqueue(
      { text: `<web_fetch>\n<url>${app.url}article</url>\n</web_fetch>` },
      { text: '<attempt_completion>\n<result>Could not.</result>\n</attempt_completion>' },
    );
    const denied = await runCli({ args: [...fx.cliArgs(), '--yes', '--web-deny', '127.0.0.1', 'Summarise the release notes'], timeoutMs: 60_000 });
    assert.equal(denied.code, 0, denied.stderr);
    assert.match(lastUserText(fx.server.requests.at(-1)!), /127\.0\.0\.1 is on the user's deny list for web tools/);

    const badViewport = await runCli({ args: [...fx.cliArgs(), '--browser-viewport', 'huge', 'x'] });
    assert.equal(badViewport.code, 2);
    assert.match(badViewport.stderr, /--browser-viewport: "huge" is not a viewport size/);
  });
});
