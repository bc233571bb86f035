import type { WebAccessPolicy } from '../web/web-access.js';
import { requestJson } from './json-answer.js';
import { arrayAt, resultsOf } from './result-text.js';
import { type BackendOptions, type SearchRequest, type WebSearchBackend, WebSearchFailure } from './search-backend.js';

/** Brave Search API's web search endpoint. */
export const BRAVE_ENDPOINT = 'https://api.search.brave.com/res/v1/web/search';
/** The most results Brave gives per request. */
const BRAVE_MAX_COUNT = 20;

/**
 * Brave Search API: `GET …/web/search?q=…&count=…` with the key in `X-Subscription-Token`; results
 * are `web.results[]` with `title`, `url` and `description` (HTML). Domain limits become `site:`
 * and `-site:` terms of the query (the API has no parameter for them); the tool filters again.
 */
export function braveBackend(apiKey: string, policy: WebAccessPolicy, options: BackendOptions = {}): WebSearchBackend {
  const base = new URL(options.endpoint ?? BRAVE_ENDPOINT);
  return {
    name: 'brave',
    label: 'Brave Search',
    destination: base.host,
    async search(request, signal) {
      const url = new URL(base);
      url.searchParams.set('q', queryWithSites(request));
      url.searchParams.set('count', String(Math.min(request.maxResults, BRAVE_MAX_COUNT)));
      const answer = await requestJson({
        url,
        label: 'Brave Search',
        policy,
        signal,
        timeoutMs: options.timeoutMs,
        headers: { 'x-subscription-token': apiKey },
      });
      const items = arrayAt(answer, ['web', 'results']);
      // An answer without a `web` section is Brave's way of finding nothing.
      if (typeof items === 'string') {
        if (typeof answer === 'object' && answer !== null && !Array.isArray(answer) && !('web' in answer)) return { results: [] };
        throw new WebSearchFailure(`Brave Search answered with JSON of another shape (${items}).`);
      }
      return { results: resultsOf(items, { title: 'title', url: 'url', snippet: 'description' }) };
    },
  };
}

/** The query with `site:` terms for the domain limits (OR-ed for allowed domains). */
export function queryWithSites(request: SearchRequest): string {
  const allowed = request.allowedDomains.map((d) => `site:${d}`).join(' OR ');
  const blocked = request.blockedDomains.map((d) => `-site:${d}`).join(' ');
  return [request.query, allowed ? (request.allowedDomains.length > 1 ? `(${allowed})` : allowed) : '', blocked].filter((p) => p !== '').join(' ');
}
