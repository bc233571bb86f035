// The web tools against a hostile server: a page on this machine's network address redirects, in
// every way HTTP allows, to a denied server on 127.0.0.1 written in every spelling. web_fetch and an
// @url mention are refused the same way, and the denied server never gets a request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expandMentions } from '../../../src/core/context/mentions.js';
import { fetchPageAsMarkdown } from '../../../src/core/context/web-page.js';
import { webDenyRules } from '../../../src/core/permissions/permission-rules.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { createWebFetchTool } from '../../../src/core/tools/web-fetch.js';
import type { WebAccessPolicy } from '../../../src/core/web/web-access.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { otherLocalAddress, startHostileWebServer, type HostileWebServer } from '../../fixtures/hostile-web-server.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

/** 127.0.0.1 as a Location header may write it. */
const SPELLINGS = [
  '127.0.0.1',
  '0x7f.1',
  '2130706433',
  '0177.0.0.1',
  '127.1',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  'localhost.',
  'LOCALHOST',
  'app.localhost',
  '0.0.0.0',
  '[::]',
  '[::1]',
];
const STATUSES = [301, 302, 303, 307, 308];

function output(outcome: ToolOutcome): string {
  if (outcome.kind === 'result') return outcome.output;
  return outcome.kind === 'error' ? `ERROR: ${outcome.error}` : outcome.kind;
}

const other = otherLocalAddress();

describe('web tools and redirects to a denied host', {
  skip: other === undefined ? 'this machine has no network address besides loopback, so there are no two distinct hosts to test with' : false,
}, () => {
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

  const fetchWith = async (policy: WebAccessPolicy, url: string) => {
    const harness = new ToolHarness(process.cwd());
    harness.policy = { ...harness.policy, browser: true };
    return output(await harness.run(createWebFetchTool(policy), { url }));
  };
  const mentionWith = async (policy: WebAccessPolicy, url: string) => {
    const expanded = await expandMentions(`Read @${url} please`, {
      cwd: process.cwd(),
      ignore: NOTHING_IGNORED,
      fetchPage: (u, signal) => fetchPageAsMarkdown(u, { policy, ...(signal ? { signal } : {}) }),
    });
    return expanded.problems.join('\n');
  };

  test('every redirect status, absolute and scheme-relative, to every spelling of a denied host: refused before it is requested', async () => {
    const policy: WebAccessPolicy = { deniedDomains: ['localhost'] };
    // An allowed redirect is followed.
    assert.match(
      await fetchWith(policy, `${front.origin}/redirect?status=308&to=/page?title=Arrived`),
      /^# Arrived\n\nSource: http:\/\/[\d.]+:\d+\/page\?title=Arrived/,
    );
    for (const status of STATUSES) {
      for (const spelling of SPELLINGS) {
        for (const location of [`http://${spelling}:${victim.port}/secret`, `//${spelling}:${victim.port}/secret`]) {
          const start = `${front.origin}/redirect?status=${status}&to=${encodeURIComponent(location)}`;
          const said = await fetchWith(policy, start);
          assert.match(
            said,
            new RegExp(
              `^ERROR: Could not fetch .*: it redirects to http://\\S+:${victim.port}/secret, and \\S+ is on the user's deny list for web tools \\(entry "localhost"\\); it was not opened`,
            ),
            `${status} ${location}: ${said}`,
          );
        }
      }
      // An @url mention is refused the same way.
      const problem = await mentionWith(policy, `${front.origin}/redirect?status=${status}&to=http://0x7f.1:${victim.port}/secret`);
      assert.match(
        problem,
        new RegExp(
          `could not be attached: it redirects to http://127\\.0\\.0\\.1:${victim.port}/secret, and 127\\.0\\.0\\.1 is on the user's deny list for web tools \\(entry "localhost"\\)`,
        ),
      );
    }
    assert.deepEqual(victim.hits, [], 'the denied server got no request');
  });

  test('chains of hops are judged at each hop; a loop ends', async () => {
    const policy: WebAccessPolicy = { deniedDomains: ['127.0.0.1'] };
    const chained = await fetchWith(policy, `${front.origin}/chain?n=4&to=${encodeURIComponent(`http://[::ffff:7f00:1]:${victim.port}/secret`)}`);
    assert.match(
      chained,
      /it redirects to http:\/\/\[::ffff:7f00:1\]:\d+\/secret, and 127\.0\.0\.1 is on the user's deny list for web tools \(entry "127\.0\.0\.1"\)/,
    );
    const looping = await fetchWith({}, `${front.origin}/loop`);
    assert.match(looping, /^ERROR: Could not fetch .*\/loop: more than 10 redirects/);
    const before = front.hits.filter((hit) => hit === '/loop').length;
    assert.equal(before, 11, 'the first request and ten redirects, then no more');
    assert.deepEqual(victim.hits, []);
  });

  test('a deny written as an address holds for the name, and a WebFetch(domain:…) deny rule at every hop', async () => {
    assert.match(
      await fetchWith({ deniedDomains: ['0x7f000001'] }, `http://localhost:${victim.port}/secret`),
      /^ERROR: localhost is on the user's deny list for web tools \(entry "0x7f000001"\)/,
    );
    const rules: WebAccessPolicy = { denyRules: () => webDenyRules([{ effect: 'deny', rule: 'WebFetch(domain:localhost)', source: 'project settings' }]) };
    const said = await fetchWith(rules, `${front.origin}/redirect?status=307&to=http://2130706433:${victim.port}/secret`);
    assert.match(
      said,
      /it redirects to http:\/\/127\.0\.0\.1:\d+\/secret, and The user's permission rule WebFetch\(domain:localhost\) \(project settings\) denies 127\.0\.0\.1; it was not opened/,
    );
    assert.match(
      await mentionWith(rules, `http://[::1]:${victim.port}/secret`),
      /The user's permission rule WebFetch\(domain:localhost\) \(project settings\) denies ::1/,
    );
    assert.deepEqual(victim.hits, []);
  });

  test("under the sandbox, web_fetch and mentions reach only the sandbox's allowed hosts", async () => {
    const sandboxed: WebAccessPolicy = { sandboxAllowedHosts: [other!] };
    assert.match(await fetchWith(sandboxed, `${front.origin}/page?title=Allowed`), /^# Allowed/);
    const redirected = await fetchWith(sandboxed, `${front.origin}/redirect?to=http://localhost:${victim.port}/secret`);
    assert.match(
      redirected,
      /it redirects to http:\/\/localhost:\d+\/secret, and localhost was not opened: under Smith's sandbox the web tools reach only the sandbox's allowed hosts/,
    );
    assert.match(await fetchWith(sandboxed, `http://127.0.0.1:${victim.port}/secret`), /^ERROR: 127\.0\.0\.1 was not opened: under Smith's sandbox/);
    assert.match(await mentionWith({ sandboxAllowedHosts: [] }, `${front.origin}/page`), /was not opened: Smith's sandbox has the network turned off/);
    assert.deepEqual(victim.hits, []);
  });
});
