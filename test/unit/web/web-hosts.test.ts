import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseViewport } from '../../../src/core/browser/browser-settings.js';
import { findMatchingEntry } from '../../../src/core/web/host-patterns.js';
import { isLocalHost, parseWebUrl } from '../../../src/core/web/web-hosts.js';

/** The deny list's reading: `example.com` covers its subdomains. */
const deniedBy = (host: string, denied: readonly string[]) => findMatchingEntry(denied, host, true);
import { webSettingsFromFlags } from '../../../src/cli/web-flags.js';

describe('web hosts', () => {
  test('hosts on this machine are local; everything else is not', () => {
    for (const host of [
      'localhost',
      'app.localhost',
      '127.0.0.1',
      '127.1.2.3',
      '[::1]',
      '::1',
      '0.0.0.0',
      'LOCALHOST',
      'localhost.',
      '0x7f.1',
      '[::ffff:127.0.0.1]',
      '[::]',
    ])
      assert.equal(isLocalHost(host), true, host);
    for (const host of ['example.com', 'localhost.example.com', '128.0.0.1', '10.0.0.1', '127.0.0.1.nip.io']) assert.equal(isLocalHost(host), false, host);
  });

  test('a deny entry covers the host and its subdomains; *. only the subdomains', () => {
    assert.equal(deniedBy('example.com', ['example.com']), 'example.com');
    assert.equal(deniedBy('docs.example.com', ['example.com']), 'example.com');
    assert.equal(deniedBy('notexample.com', ['example.com']), undefined);
    assert.equal(deniedBy('example.com', ['*.example.com']), undefined);
    assert.equal(deniedBy('a.b.example.com', ['*.example.com']), '*.example.com');
    assert.equal(deniedBy('Example.COM.', [' EXAMPLE.com ']), ' EXAMPLE.com ');
    assert.equal(deniedBy('example.com', ['', '  ']), undefined);
  });

  test('only full http and https URLs are taken', () => {
    assert.equal((parseWebUrl(' http://localhost:3000/x ') as URL).href, 'http://localhost:3000/x');
    assert.equal(parseWebUrl('localhost:3000'), '"localhost:3000" has no scheme; give the full URL, e.g. http://localhost:3000');
    assert.equal(parseWebUrl('file:///etc/passwd'), 'Only http and https URLs can be opened, not file:');
    assert.match(parseWebUrl('not a url') as string, /is not a valid URL/);
    assert.equal(parseWebUrl('javascript:alert(1)'), 'Only http and https URLs can be opened, not javascript:');
  });

  test('viewport sizes', () => {
    assert.deepEqual(parseViewport('1280x800'), { width: 1280, height: 800 });
    assert.deepEqual(parseViewport(' 900 × 600 '), { width: 900, height: 600 });
    assert.match(parseViewport('10x10') as string, /between 100 and 4000/);
    assert.match(parseViewport('wide') as string, /is not a viewport size/);
  });

  test('CLI flags become the web settings; bad ones say what is wrong', () => {
    assert.deepEqual(webSettingsFromFlags({}), { browser: {}, search: { backend: 'auto' } });
    assert.deepEqual(
      webSettingsFromFlags({
        'browser-path': '/opt/chrome',
        'browser-cdp': 'http://127.0.0.1:9222',
        'browser-viewport': '1024x768',
        'browser-headed': true,
        'web-deny': ['example.com', '*.ads.net'],
      }),
      {
        browser: { executablePath: '/opt/chrome', cdpEndpoint: 'http://127.0.0.1:9222', viewport: { width: 1024, height: 768 }, headed: true },
        deniedDomains: ['example.com', '*.ads.net'],
        search: { backend: 'auto' },
      },
    );
    assert.equal(webSettingsFromFlags({ 'browser-cdp': '127.0.0.1:9222' }), '--browser-cdp must be an http:// or ws:// address; got "127.0.0.1:9222"');
    assert.equal(
      webSettingsFromFlags({ 'web-deny': ['https://example.com/'] }),
      '--web-deny takes a host name such as example.com or *.example.com; got "https://example.com/"',
    );
    assert.deepEqual(webSettingsFromFlags({ 'web-deny': ['[::1]', '0x7f.1', 'intranet.corp:8080'] }), {
      browser: {},
      deniedDomains: ['[::1]', '0x7f.1', 'intranet.corp:8080'],
      search: { backend: 'auto' },
    });
    assert.match(webSettingsFromFlags({ 'browser-viewport': 'big' }) as string, /^--browser-viewport: "big" is not a viewport size/);
  });
});
