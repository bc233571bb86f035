// web_fetch against a real HTTP server on 127.0.0.1: clean Markdown, the cap, per-host approval, the deny list, bad input.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { createWebFetchTool } from '../../../src/core/tools/web-fetch.js';
import { startWebAppServer, type WebAppServer } from '../../fixtures/web-app-server.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

function output(outcome: ToolOutcome): string {
  if (outcome.kind === 'result') return outcome.output;
  return outcome.kind === 'error' ? `ERROR: ${outcome.error}` : outcome.kind;
}

describe('web_fetch', () => {
  let server: WebAppServer;
  let root: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'smith-web-fetch-'));
    server = await startWebAppServer(root);
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('an article page comes back as clean Markdown with typed facts; the host is asked for once', async () => {
    const harness = new ToolHarness(root);
    harness.answers = [{ approved: true }];
    const tool = createWebFetchTool();
    const first = await harness.run(tool, { url: `${server.url}article` });
    assert.equal(first.kind, 'result');
    if (first.kind !== 'result') return;
    assert.match(first.output, /^# Release notes \| Example\n\nSource: http:\/\/127\.0\.0\.1:\d+\/article\n\n## Version 2\.0 is out/);
    assert.match(first.output, /We rewrote the \*\*parser\*\*/);
    assert.match(first.output, /```\nnpm install example@2\n```/);
    assert.doesNotMatch(first.output, /TRACKER-CODE|color:red|About us|Cookie settings/);
    assert.deepEqual(first.details?.fetch, { url: `${server.url}article`, chars: first.output.length, truncated: false });
    assert.deepEqual(
      harness.asked.map((a) => a.summary),
      [`Fetch ${server.url}article`],
    );
    // The same host again: no second question.
    const again = await harness.run(tool, { url: `${server.url}article?again=1` });
    assert.equal(again.kind, 'result');
    assert.equal(harness.asked.length, 1);
  });

  test('a page over the cap is cut with a note; auto-approved web tools do not ask', async () => {
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    const outcome = await harness.run(createWebFetchTool({ maxChars: 100 }), { url: `${server.url}article` });
    assert.equal(outcome.kind, 'result');
    if (outcome.kind !== 'result') return;
    assert.match(outcome.output, /\n\n\[The page's Markdown has \d+ characters; only the first 100 are shown\.\]$/);
    assert.equal(outcome.details?.fetch?.truncated, true);
    assert.equal(harness.asked.length, 0);
  });

  test('redirects are followed (web-redirects.test.ts shows that a denied hop never is)', async () => {
    const harness = new ToolHarness(root);
    harness.policy = { ...harness.policy, browser: true };
    const followed = await harness.run(createWebFetchTool({ deniedDomains: ['example.com'] }), { url: `${server.url}redirect?to=/article` });
    assert.match(output(followed), /^# Release notes \| Example\n\nSource: http:\/\/127\.0\.0\.1:\d+\/article\n/);
  });

  test('the deny list, a rejection, and pages that do not load are clear errors', async () => {
    const harness = new ToolHarness(root);
    const denied = await harness.run(createWebFetchTool({ deniedDomains: ['127.0.0.1'] }), { url: `${server.url}article` });
    assert.deepEqual(denied, {
      kind: 'error',
      error: '127.0.0.1 is on the user\'s deny list for web tools (entry "127.0.0.1"); it was not opened. Do not try to reach it another way.',
      mistake: false,
    });
    assert.equal(harness.asked.length, 0, 'a denied host is never asked about');

    harness.answers = [{ approved: false, feedback: 'not now' }];
    assert.deepEqual(await harness.run(createWebFetchTool(), { url: `${server.url}article` }), { kind: 'rejected', feedback: 'not now' });

    harness.policy = { ...harness.policy, browser: true };
    const missing = await harness.run(createWebFetchTool(), { url: `${server.url}nothing-here` });
    assert.equal(missing.kind, 'error');
    assert.match(missing.kind === 'error' ? missing.error : '', /^Could not fetch http:\/\/127\.0\.0\.1:\d+\/nothing-here: .*answered HTTP 404/);

    const closed = await startWebAppServer(root);
    await closed.close();
    const refused = await harness.run(createWebFetchTool(), { url: `${closed.url}` });
    assert.match(refused.kind === 'error' ? refused.error : '', /^Could not fetch http:\/\/127\.0\.0\.1:\d+\/: ECONNREFUSED/);

    const invalid = await harness.run(createWebFetchTool(), { url: 'not a url' });
    assert.deepEqual(invalid.kind === 'error' ? [invalid.mistake, invalid.error] : [], [
      true,
      '"not a url" is not a valid URL; give a full address such as http://localhost:3000/ or https://example.com/page.',
    ]);
    const file = await harness.run(createWebFetchTool(), { url: 'file:///etc/passwd' });
    assert.match(file.kind === 'error' ? file.error : '', /Only http and https URLs can be opened, not file:/);
  });
});
