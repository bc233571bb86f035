import type { WebAccessPolicy } from '../web/web-access.js';
import { requestJson } from './json-answer.js';
import { arrayAt, resultsOf } from './result-text.js';
import { type BackendOptions, type WebSearchBackend, WebSearchFailure } from './search-backend.js';

/** Tavily's search endpoint. */
export const TAVILY_ENDPOINT = 'https://api.tavily.com/search';
/** The most results Tavily gives per request. */
const TAVILY_MAX_RESULTS = 20;

/**
 * Tavily: `POST /search` with `{query, max_results, include_domains, exclude_domains}` and the key
 * as a bearer token; results are `results[]` with `title`, `url` and `content`.
 */
export function tavilyBackend(apiKey: string, policy: WebAccessPolicy, options: BackendOptions = {}): WebSearchBackend {
  const url = new URL(options.endpoint ?? TAVILY_ENDPOINT);
  return {
    name: 'tavily',
    label: 'Tavily',
    destination: url.host,
    async search(request, signal) {
      const answer = await requestJson({
        url,
        label: 'Tavily',
        policy,
        signal,
        timeoutMs: options.timeoutMs,
        headers: { authorization: `Bearer ${apiKey}` },
        post: {
          query: request.query,
          max_results: Math.min(request.maxResults, TAVILY_MAX_RESULTS),
          search_depth: 'basic',
          ...(request.allowedDomains.length > 0 ? { include_domains: request.allowedDomains } : {}),
          ...(request.blockedDomains.length > 0 ? { exclude_domains: request.blockedDomains } : {}),
        },
      });
      const items = arrayAt(answer, ['results']);
      if (typeof items === 'string') throw new WebSearchFailure(`Tavily answered with JSON of another shape (${items}).`);
      return { results: resultsOf(items, { title: 'title', url: 'url', snippet: 'content' }) };
    },
  };
}
