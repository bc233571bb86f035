// A page that never finishes arriving, one too large, and one gzip bomb: what was read is kept and
// the Markdown says the page was cut (memory is measured in web-page-memory.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fetchPage } from '../../../src/core/context/web-page.js';
import { startHostileWebServer, type HostileWebServer } from '../../fixtures/hostile-web-server.js';

describe('web pages within bounds', () => {
  let server: HostileWebServer;
  before(async () => {
    server = await startHostileWebServer();
  });
  after(async () => {
    await server.close();
  });

  test('a page still arriving when time is up is read as far as it came, and says so', async () => {
    const page = await fetchPage(`${server.origin}/drip`, { timeoutMs: 2_000 });
    assert.equal(page.cut, true);
    assert.match(
      page.markdown,
      /^# Drip\n\nSource: http:\/\/127\.0\.0\.1:\d+\/drip\n\n\[The page was still arriving after 2 s; only what came by then was read\.\]\n\nThe first part arrived\./,
    );
  });

  test('the caller cancelling is not a page cut short: it is an error', async () => {
    const controller = new AbortController();
    const pending = fetchPage(`${server.origin}/drip`, { signal: controller.signal });
    setImmediate(() => controller.abort());
    await assert.rejects(pending);
  });

  test('a body is capped after inflating: a gzip bomb gives its first 5 MB and a note', async () => {
    const page = await fetchPage(`${server.origin}/gzip-bomb`, { maxBytes: 64 * 1024 });
    assert.equal(page.cut, true);
    assert.match(page.markdown, /\[The page is larger than 64 KB; only its first 64 KB were read\.\]\n\nbomb\n\nbomb/);
  });

  test('a page whose text is too large for the DOM is cut before a tag, and says so', async () => {
    const page = await fetchPage(`${server.origin}/big?mb=1&kind=divs`);
    assert.equal(page.cut, true);
    assert.match(
      page.markdown,
      /\[The page is too large to convert whole \(more than 512 KB or 10000 elements once scripts and styles are removed\); only its first part was read\.\]/,
    );
    assert.doesNotMatch(page.markdown, /larger than 5 MB/, 'all of it was downloaded');
  });
});
