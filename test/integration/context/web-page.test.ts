import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { expandMentions } from '../../../src/core/context/mentions.js';
import { fetchPageAsMarkdown } from '../../../src/core/context/web-page.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { ARTICLE_HTML } from '../../fixtures/web-app-server.js';

const ARTICLE = ARTICLE_HTML;

let server: Server;
let base: string;
before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/article') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    else if (req.url === '/data.json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    else if (req.url === '/image.png') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71]));
    else res.writeHead(404, 'Not Found').end('missing');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('web pages as Markdown', () => {
  test('an article page becomes clean Markdown: title, text, links, code and lists; no navigation, scripts or styles', async () => {
    const markdown = await fetchPageAsMarkdown(`${base}/article`);
    assert.match(markdown, /^# Release notes \| Example\n\nSource: http:\/\/127\.0\.0\.1:\d+\/article\n\n## Version 2\.0 is out\n\n/);
    assert.match(markdown, /We rewrote the \*\*parser\*\*/);
    assert.match(markdown, /\[migration guide\]\(https:\/\/example\.com\/migrate\)/);
    assert.match(markdown, /```\nnpm install example@2\n```/);
    assert.match(markdown, /- +Faster parsing of large inputs\n- +Smaller bundles/);
    assert.doesNotMatch(markdown, /TRACKER-CODE|color:red|About us|<p>/);
  });

  test('JSON is passed through; errors and non-text types are clear', async () => {
    assert.equal(await fetchPageAsMarkdown(`${base}/data.json`), '{"ok":true}');
    await assert.rejects(fetchPageAsMarkdown(`${base}/gone`), /answered HTTP 404 Not Found/);
    await assert.rejects(fetchPageAsMarkdown(`${base}/image.png`), /is image\/png, not a page Smith can read as text/);
    await assert.rejects(fetchPageAsMarkdown('file:///etc/passwd'), /only http and https pages can be fetched/);
  });

  test('an @https mention attaches the page; a failing one is reported', async () => {
    const expanded = await expandMentions(`Summarise @${base}/article and @${base}/gone`, {
      cwd: process.cwd(),
      ignore: NOTHING_IGNORED,
      fetchPage: (url, signal) => fetchPageAsMarkdown(url, signal ? { signal } : {}),
    });
    assert.deepEqual(
      expanded.attachments.map((a) => [a.kind, a.ref]),
      [['url', `${base}/article`]],
    );
    assert.match(expanded.context, new RegExp(`<url href="${base}/article">\\n# Release notes \\| Example`));
    assert.match(expanded.problems[0] ?? '', /could not be attached: .*answered HTTP 404/);
  });
});
