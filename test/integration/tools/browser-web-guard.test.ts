// browser_action against a hostile server in a real Chromium: every request of the page (a link, a
// redirect hop, an image) passes Smith's guard, so a denied server on 127.0.0.1, in any spelling,
// never gets a request; the model is told which rule refused it.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { BrowserSession } from '../../../src/core/browser/browser-session.js';
import { webDenyRules } from '../../../src/core/permissions/permission-rules.js';
import { createBrowserActionTool } from '../../../src/core/tools/browser-action.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import type { WebAccessPolicy } from '../../../src/core/web/web-access.js';
import { otherLocalAddress, startHostileWebServer, type HostileWebServer } from '../../fixtures/hostile-web-server.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

function output(outcome: ToolOutcome): string {
  if (outcome.kind === 'result') return outcome.output;
  return outcome.kind === 'error' ? `ERROR: ${outcome.error}` : outcome.kind;
}

const other = otherLocalAddress();

describe('the browser and denied hosts', {
  skip: other === undefined ? 'this machine has no network address besides loopback, so there are no two distinct hosts to test with' : false,
}, () => {
  let victim: HostileWebServer;
  let front: HostileWebServer;
  const sessions: BrowserSession[] = [];
  const run = (policy: WebAccessPolicy) => {
    const session = new BrowserSession({}, policy);
    sessions.push(session);
    const tool = createBrowserActionTool(session);
    const harness = new ToolHarness(process.cwd());
    harness.policy = { ...harness.policy, browser: true };
    return async (params: Record<string, string>) => output(await harness.run(tool, params));
  };
  before(async () => {
    victim = await startHostileWebServer('127.0.0.1');
    front = await startHostileWebServer(other);
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.close();
  });
  after(async () => {
    await victim.close();
    await front.close();
  });

  test('a link, an image and every redirect to a denied host in any spelling are blocked, and the model is told by which entry', async () => {
    const browse = run({ deniedDomains: ['localhost'] });
    const opened = await browse({ action: 'launch', url: `${front.origin}/links?to=${encodeURIComponent(`http://0x7f.1:${victim.port}/secret`)}` });
    assert.match(opened, /^Opened /);
    assert.match(
      opened,
      new RegExp(
        `blocked: http://127\\.0\\.0\\.1:${victim.port}/secret\\?image: 127\\.0\\.0\\.1 is on the user's deny list for web tools \\(entry "localhost"\\)`,
      ),
    );
    const clicked = await browse({ action: 'click', element: 'Elsewhere' });
    assert.match(clicked, new RegExp(`blocked: http://127\\.0\\.0\\.1:${victim.port}/secret: 127\\.0\\.0\\.1 is on the user's deny list`));
    // The page shows Smith's refusal, not what the denied server would have sent.
    assert.match(clicked, /heading "Blocked by Smith"/);
    assert.doesNotMatch(clicked, /text: secret/);
    for (const spelling of ['[::ffff:127.0.0.1]', '2130706433', 'localhost.', '[::1]']) {
      for (const status of [301, 302, 303, 307, 308]) {
        const location = `http://${spelling}:${victim.port}/secret`;
        const said = await browse({ action: 'launch', url: `${front.origin}/redirect?status=${status}&to=${encodeURIComponent(location)}` });
        assert.match(
          said,
          /^ERROR: http:\S+ did not load: \S+ is on the user's deny list for web tools \(entry "localhost"\); it was not opened/,
          `${status} ${location}: ${said}`,
        );
      }
    }
    const direct = await browse({ action: 'launch', url: `http://LOCALHOST.:${victim.port}/secret` });
    assert.match(direct, /^ERROR: localhost is on the user's deny list for web tools \(entry "localhost"\)/);
    assert.deepEqual(victim.hits, [], 'the denied server got no request');
  });

  test('a WebFetch deny rule and the sandbox allow list hold for the browser the same way', async () => {
    const ruled = run({ denyRules: () => webDenyRules([{ effect: 'deny', rule: 'WebFetch(domain:127.0.0.1)', source: 'user settings' }]) });
    const redirected = await ruled({ action: 'launch', url: `${front.origin}/chain?n=3&to=${encodeURIComponent(`http://localhost:${victim.port}/secret`)}` });
    assert.match(redirected, /did not load: The user's permission rule WebFetch\(domain:127\.0\.0\.1\) \(user settings\) denies localhost; it was not opened/);

    const sandboxed = run({ sandboxAllowedHosts: [other!] });
    assert.match(await sandboxed({ action: 'launch', url: `${front.origin}/page?title=Allowed` }), /^Opened /);
    assert.match(
      await sandboxed({ action: 'launch', url: `http://127.0.0.1:${victim.port}/` }),
      /^ERROR: 127\.0\.0\.1 was not opened: under Smith's sandbox the web tools reach only the sandbox's allowed hosts/,
    );
    const image = await sandboxed({ action: 'launch', url: `${front.origin}/links?to=${encodeURIComponent(`http://127.0.0.1:${victim.port}/secret`)}` });
    assert.match(image, /blocked: http:\/\/127\.0\.0\.1:\d+\/secret\?image: 127\.0\.0\.1 was not opened: under Smith's sandbox/);
    assert.deepEqual(victim.hits, []);
  });
});
