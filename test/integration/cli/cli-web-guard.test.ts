// The CLI's web tools against a hostile server: --web-deny, a WebFetch deny rule and the sandbox's
// allowed hosts hold for an @url mention, web_fetch and browser_action alike, at every redirect hop
// and in every spelling of the host; the denied server on 127.0.0.1 never gets a request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { otherLocalAddress, startHostileWebServer, type HostileWebServer } from '../../fixtures/hostile-web-server.js';

const other = otherLocalAddress();
const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe('smith CLI: where the web tools may go', {
  skip: other === undefined ? 'this machine has no network address besides loopback, so there are no two distinct hosts to test with' : false,
}, () => {
  const fx = useAgentFixture();
  let victim: HostileWebServer;
  let front: HostileWebServer;
  before(async () => {
    victim = await startHostileWebServer('127.0.0.1');
    front = await startHostileWebServer(other);
  });
  after(async () => {
    await victim.close();
    await front.close();
  });
  const redirect = (to: string, status = 302) => `${front.origin}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

  test('--web-deny: a mention, web_fetch and the browser are refused the same way at a redirect to any spelling of the host', async () => {
    fx.server.enqueue(
      { text: `<web_fetch>\n<url>${redirect(`http://[::ffff:127.0.0.1]:${victim.port}/secret`, 307)}</url>\n</web_fetch>` },
      { text: `<browser_action>\n<action>launch</action>\n<url>${redirect(`http://2130706433:${victim.port}/secret`, 301)}</url>\n</browser_action>` },
      done,
    );
    const mention = `${front.origin}/redirect?status=308&to=${encodeURIComponent(`http://0x7f.1:${victim.port}/secret`)}`;
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--web-deny', 'LOCALHOST.', `Read @${mention} and check the page`], timeoutMs: 120_000 });
    assert.equal(run.code, 0, run.stderr);
    const refusal = /127\.0\.0\.1 is on the user's deny list for web tools \(entry "LOCALHOST\."\); it was not opened/;
    const first = lastUserText(fx.server.requestAt(0));
    assert.match(first, /could not be attached: it redirects to http:\/\/127\.0\.0\.1:\d+\/secret, and /);
    assert.match(first, refusal);
    assert.match(
      lastUserText(fx.server.requestAt(1)),
      /Could not fetch .*: it redirects to http:\/\/\[::ffff:7f00:1\]:\d+\/secret, and 127\.0\.0\.1 is on the user's deny list/,
    );
    assert.match(lastUserText(fx.server.requestAt(2)), /did not load: 127\.0\.0\.1 is on the user's deny list for web tools \(entry "LOCALHOST\."\)/);
    assert.deepEqual(victim.hits, [], 'the denied server got no request');
  });

  test('a WebFetch(domain:…) deny rule holds at a redirect hop, for the address the rule names', async () => {
    fx.server.enqueue({ text: `<web_fetch>\n<url>${redirect(`http://localhost:${victim.port}/secret`)}</url>\n</web_fetch>` }, done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--deny', 'WebFetch(domain:127.0.0.1)', 'Fetch it'], timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      lastUserText(fx.server.requestAt(1)),
      /it redirects to http:\/\/localhost:\d+\/secret, and The user's permission rule WebFetch\(domain:127\.0\.0\.1\) \(--deny\) denies localhost/,
    );
    assert.deepEqual(victim.hits, []);
  });

  test('--sandbox --sandbox-allow-host: web_fetch and mentions reach that host only', async () => {
    fx.server.enqueue(
      { text: `<web_fetch>\n<url>${front.origin}/page?title=Allowed</url>\n</web_fetch>` },
      { text: `<web_fetch>\n<url>http://127.0.0.1:${victim.port}/secret</url>\n</web_fetch>` },
      done,
    );
    const run = await runCli({
      args: [...fx.cliArgs(), '--yes', '--sandbox', '--sandbox-allow-host', other!, `Read @http://localhost:${victim.port}/secret first`],
      timeoutMs: 120_000,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      lastUserText(fx.server.requestAt(0)),
      /could not be attached: localhost was not opened: under Smith's sandbox the web tools reach only the sandbox's allowed hosts/,
    );
    assert.match(lastUserText(fx.server.requestAt(1)), /^# Allowed/m);
    assert.match(
      lastUserText(fx.server.requestAt(2)),
      /127\.0\.0\.1 was not opened: under Smith's sandbox the web tools reach only the sandbox's allowed hosts \(--sandbox-allow-host, smith\.sandboxAllowedHosts\)/,
    );
    assert.deepEqual(victim.hits, []);
  });
});
