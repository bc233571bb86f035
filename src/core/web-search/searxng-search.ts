import type { WebAccessPolicy } from '../web/web-access.js';
import { requestJson } from './json-answer.js';
import { queryWithSites } from './brave-search.js';
import { arrayAt, resultsOf } from './result-text.js';
import { type BackendOptions, type WebSearchBackend, WebSearchFailure } from './search-backend.js';

/**
 * A SearXNG instance: `GET <url>/search?q=…&format=json`; results are `results[]` with `title`,
 * `url` and `content`. SearXNG returns one page (about ten results) and takes no count; domain
 * limits become `site:` terms, which most of its engines understand. The instance must allow the
 * JSON format (`search.formats` in its settings.yml), or it answers 403.
 */
export function searxngBackend(baseUrl: string, policy: WebAccessPolicy, options: Pick<BackendOptions, 'timeoutMs'> = {}): WebSearchBackend {
  const base = new URL(baseUrl);
  // The instance may live under a path (https://example.com/searx/): /search is below it.
  const endpoint = new URL(`${base.pathname.replace(/\/+$/, '')}/search`, base);
  return {
    name: 'searxng',
    label: 'SearXNG',
    destination: base.host,
    async search(request, signal) {
      const url = new URL(endpoint);
      url.searchParams.set('q', queryWithSites(request));
      url.searchParams.set('format', 'json');
      const answer = await requestJson({
        url,
        label: 'SearXNG',
        policy,
        signal,
        timeoutMs: options.timeoutMs,
        statusHint: (status) => (status === 403 ? 'the instance does not allow the JSON format; add json to search.formats in its settings.yml' : undefined),
      });
      const items = arrayAt(answer, ['results']);
      if (typeof items === 'string') throw new WebSearchFailure(`SearXNG answered with JSON of another shape (${items}).`);
      return { results: resultsOf(items, { title: 'title', url: 'url', snippet: 'content' }) };
    },
  };
}
