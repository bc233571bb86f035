// web_search's settings: the one reader of the setting and the flags, the keys, and the choice of
// backend; package.json offers exactly the choices the reader accepts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { filterResults } from '../../../src/core/web-search/result-filter.js';
import { plainText, searchResult } from '../../../src/core/web-search/result-text.js';
import {
  chooseSearchBackend,
  readWebSearchSettings,
  WEB_SEARCH_CHOICES,
  webSearchKeysFromEnv,
  withSearchKeys,
} from '../../../src/core/web-search/web-search-settings.js';
import { searchRequest } from '../../../src/core/tools/web-search.js';

describe('web_search settings', () => {
  test("package.json's smith.webSearch.backend offers exactly the reader's choices, auto by default", () => {
    const setting = JSON.parse(readFileSync('package.json', 'utf8')).contributes.configuration.properties['smith.webSearch.backend'];
    assert.deepEqual(setting.enum, [...WEB_SEARCH_CHOICES]);
    assert.equal(setting.default, 'auto');
    assert.equal(setting.enumDescriptions.length, WEB_SEARCH_CHOICES.length);
  });

  test('the reader takes every spelling of a choice and says what is wrong with a bad value', () => {
    assert.deepEqual(readWebSearchSettings({}), { backend: 'auto' });
    assert.deepEqual(readWebSearchSettings({ backend: ' Brave ' }), { backend: 'brave' });
    assert.deepEqual(readWebSearchSettings({ backend: 'searxng', searxngUrl: ' https://search.example/searx ' }), {
      backend: 'searxng',
      searxngUrl: 'https://search.example/searx',
    });
    assert.match(readWebSearchSettings({ backend: 'google' }) as string, /must be one of auto, anthropic, openai, brave, tavily, searxng, off; got "google"/);
    assert.match(readWebSearchSettings({ backend: 42 }) as string, /got "42"/);
    assert.match(readWebSearchSettings({ backend: 'searxng' }) as string, /needs the address of a SearXNG instance/);
    for (const url of ['file:///etc/passwd', 'localhost:8888', 'javascript:alert(1)'])
      assert.match(readWebSearchSettings({ searxngUrl: url }) as string, /must be an http:\/\/ or https:\/\/ URL/, url);
  });

  test('keys: from the environment, blank ones are none; they never reach the settings as written', () => {
    const keys = webSearchKeysFromEnv({ BRAVE_API_KEY: ' BSA-1 ', TAVILY_API_KEY: '   ', OTHER: 'x' });
    assert.deepEqual(withSearchKeys({ backend: 'auto' }, keys), { backend: 'auto', keys: { brave: 'BSA-1' } });
    assert.deepEqual(withSearchKeys({ backend: 'auto' }, {}), { backend: 'auto' });
  });

  test('auto takes SearXNG, then Brave, then Tavily, then the provider’s own; a backend named but not set up is a problem, off is nothing', () => {
    const compatible = { provider: 'openai-compatible' as const, model: 'qwen3' };
    const pick = (settings: Parameters<typeof chooseSearchBackend>[0]) => chooseSearchBackend(settings, compatible, {});
    assert.equal(pick({ backend: 'auto', searxngUrl: 'http://127.0.0.1:8888', keys: { brave: 'b', tavily: 't' } }).backend?.name, 'searxng');
    assert.equal(pick({ backend: 'auto', keys: { brave: 'b', tavily: 't' } }).backend?.name, 'brave');
    assert.equal(pick({ backend: 'auto', keys: { tavily: 't' } }).backend?.name, 'tavily');
    assert.deepEqual(pick({ backend: 'auto' }), {});
    assert.deepEqual(pick(undefined), {});
    assert.equal(pick({ backend: 'tavily', keys: { brave: 'b', tavily: 't' } }).backend?.name, 'tavily');
    assert.match(pick({ backend: 'brave', keys: { tavily: 't' } }).problem ?? '', /^web_search is off: no Brave Search API key is set \(BRAVE_API_KEY/);
    assert.deepEqual(pick({ backend: 'off', searxngUrl: 'http://127.0.0.1:8888' }), {});
    const brave = pick({ backend: 'brave', keys: { brave: 'BSA-secret' } }).backend!;
    assert.equal(brave.destination, 'api.search.brave.com');
    assert.doesNotMatch(JSON.stringify(brave) + brave.label + brave.destination, /BSA-secret/);
  });
});

describe('web_search results', () => {
  test('snippets and titles become plain, bounded text; results without an http(s) URL are dropped', () => {
    assert.equal(plainText('<strong>fs</strong>&nbsp;&amp; &#x27;cp&#39; &lt;dir&gt;\n\t done', 100), "fs & 'cp' <dir> done");
    assert.equal(plainText('x'.repeat(1000), 300).length, 300);
    assert.equal(plainText({ not: 'text' }, 10), '');
    assert.equal(searchResult('t', 'javascript:alert(1)', ''), undefined);
    assert.equal(searchResult('t', 'not a url', ''), undefined);
    assert.equal(searchResult('t', `https://example.com/${'a'.repeat(600)}`, ''), undefined);
    assert.deepEqual(searchResult('', 'https://Example.com/a b', 's'), { title: 'example.com', url: 'https://example.com/a%20b', snippet: 's' });
  });

  test('the filter compares canonical hosts: subdomains, case, trailing dots; duplicates and the count are kept in check', () => {
    const request = searchRequest({ query: 'q', max_results: '2' });
    assert.ok(typeof request !== 'string');
    const results = ['https://A.example.com./x', 'https://a.example.com/x', 'https://b.test/y', 'https://c.test/z', 'https://d.test/w'].map((url) => ({
      title: 't',
      url: new URL(url).href,
      snippet: '',
    }));
    const filtered = filterResults(results, request, {
      deniedDomains: ['EXAMPLE.com'],
      denyRules: () => [{ domain: '*.test', rule: 'WebSearch(domain:*.test)', source: 'settings' }],
    });
    assert.deepEqual(filtered.kept, []);
    assert.equal(filtered.droppedByUser, 5);
    const open = filterResults(results, request, {});
    assert.deepEqual(
      open.kept.map((r) => r.url),
      ['https://a.example.com./x', 'https://b.test/y'],
    );
    assert.equal(open.duplicates, 1, 'the same page under another spelling of its host is shown once');
  });
});
