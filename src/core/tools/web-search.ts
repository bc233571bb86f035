import type { WebSearchFacts } from '../../shared/tool-details.js';
import { builtInSpec, mistake, type ToolHandler, type ToolOutcome } from '../tool-kit/tool-spec.js';
import { parseHostPattern } from '../web/host-patterns.js';
import { filterResults, type FilteredResults, type ResultPolicy } from '../web-search/result-filter.js';
import { type SearchRequest, type SearchResult, type WebSearchBackend, WebSearchFailure } from '../web-search/search-backend.js';

/** Results one search shows by default and at most. */
const DEFAULT_RESULTS = 8;
const MAX_RESULTS = 20;
/** Longest query: Brave's limit, and more than any search needs. */
const MAX_QUERY_CHARS = 400;
/** Most domains in allowed_domains or blocked_domains. */
const MAX_DOMAINS = 20;

/**
 * web_search: a query sent to the task's search backend (search-backend.ts), answered with titles,
 * URLs and snippets. Each search is approved (unless web tools are auto-approved or a WebSearch
 * rule allows it); results from hosts the user keeps the web tools from are dropped.
 */
export function createWebSearchTool(backend: WebSearchBackend, policy: ResultPolicy = {}): ToolHandler {
  return {
    spec: builtInSpec({
      name: 'web_search',
      description: `Search the web for current information: documentation, error messages, releases, issues. Returns up to ${MAX_RESULTS} results (default ${DEFAULT_RESULTS}), each a title, URL and snippet; read a result with web_fetch.`,
      params: [
        { name: 'query', required: true, description: 'The search query, as you would type it into a search engine' },
        {
          name: 'allowed_domains',
          required: false,
          description: 'Only results from these domains (and their subdomains), comma-separated, e.g. nodejs.org,developer.mozilla.org',
        },
        { name: 'blocked_domains', required: false, description: 'No results from these domains, comma-separated (not with allowed_domains)' },
        { name: 'max_results', required: false, description: `How many results, 1–${MAX_RESULTS} (default ${DEFAULT_RESULTS})` },
      ],
      example: '<web_search>\n<query>node fs.promises.cp recursive filter option</query>\n<allowed_domains>nodejs.org</allowed_domains>\n</web_search>',
    }),
    async execute(params, context): Promise<ToolOutcome> {
      const request = searchRequest(params);
      if (typeof request === 'string') return mistake(request);
      const answer = await context.approve({
        summary: `Search the web for "${request.query}"`,
        reason: `Sends the query to ${backend.destination}.`,
      });
      if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };
      let found: readonly SearchResult[];
      try {
        found = (await backend.search(request, context.signal)).results;
      } catch (error) {
        if (context.signal.aborted) throw error;
        const why = error instanceof WebSearchFailure ? error.message : `${backend.label} failed: ${(error as Error).message ?? String(error)}`;
        return { kind: 'error', error: `The search for "${request.query}" did not complete. ${why}`, mistake: false };
      }
      const filtered = filterResults(found, request, policy);
      const facts: WebSearchFacts = {
        query: request.query,
        backend: backend.label,
        results: filtered.kept.map((r) => ({ title: r.title, url: r.url })),
        dropped: filtered.droppedByCall + filtered.droppedByUser,
      };
      if (filtered.kept.length === 0) return { kind: 'error', error: noResults(request, backend, filtered), mistake: false, details: { webSearch: facts } };
      return { kind: 'result', output: renderResults(request, backend, filtered), details: { webSearch: facts } };
    },
  };
}

/** The call's parameters checked; a string says what is wrong. */
export function searchRequest(params: Readonly<Record<string, string | undefined>>): SearchRequest | string {
  const query = (params.query ?? '').replace(/\s+/g, ' ').trim();
  if (query === '') return 'The query is empty: give the words to search for.';
  if (query.length > MAX_QUERY_CHARS)
    return `The query has ${query.length} characters; search engines take at most ${MAX_QUERY_CHARS}. Use fewer, more specific words.`;
  const allowed = domainList(params.allowed_domains, 'allowed_domains');
  if (typeof allowed === 'string') return allowed;
  const blocked = domainList(params.blocked_domains, 'blocked_domains');
  if (typeof blocked === 'string') return blocked;
  if (allowed.length > 0 && blocked.length > 0) return 'Give allowed_domains or blocked_domains, not both.';
  let maxResults = DEFAULT_RESULTS;
  const count = params.max_results?.trim();
  if (count !== undefined && count !== '') {
    maxResults = Number(count);
    if (!/^\d+$/.test(count) || maxResults < 1 || maxResults > MAX_RESULTS)
      return `max_results must be a whole number from 1 to ${MAX_RESULTS}; got "${count}".`;
  }
  return { query, maxResults, allowedDomains: allowed, blockedDomains: blocked };
}

/** A list of domains, comma- or space-separated or a JSON array; each one a host name (a `*.` wildcard allowed). */
function domainList(text: string | undefined, name: string): string[] | string {
  if (text === undefined || text.trim() === '') return [];
  let entries: unknown[];
  try {
    const parsed = JSON.parse(text) as unknown;
    entries = Array.isArray(parsed) ? parsed : [text];
  } catch {
    entries = text.split(/[\s,]+/);
  }
  const domains = entries.map((e) => (typeof e === 'string' ? e.trim() : String(e))).filter((e) => e !== '');
  if (domains.length > MAX_DOMAINS) return `${name} has ${domains.length} domains; give at most ${MAX_DOMAINS}.`;
  const bad = domains.find((d) => /[/@?#:]/.test(d) || parseHostPattern(d) === undefined);
  if (bad !== undefined) return `${name} takes domain names such as example.com or docs.example.com, not "${bad}".`;
  return [...new Set(domains.map((d) => d.toLowerCase()))];
}

/** One numbered entry per result: title, URL, snippet; then what was left out and why. */
function renderResults(request: SearchRequest, backend: WebSearchBackend, filtered: FilteredResults): string {
  const lines = [`Results for "${request.query}" (${backend.label}):`];
  filtered.kept.forEach((result, i) => {
    lines.push('', `${i + 1}. ${result.title}`, `   ${result.url}`);
    if (result.snippet !== '') lines.push(`   ${result.snippet}`);
  });
  const notes = droppedNotes(filtered);
  if (notes !== '') lines.push('', notes);
  return lines.join('\n');
}

function noResults(request: SearchRequest, backend: WebSearchBackend, filtered: FilteredResults): string {
  const notes = droppedNotes(filtered);
  return `The search for "${request.query}" found no results (${backend.label}).${notes ? ` ${notes}` : ' Try other or fewer words.'}`;
}

/** What was left out, for the model: the user's denials by the entry or rule, so it does not try those hosts another way. */
function droppedNotes(filtered: FilteredResults): string {
  const notes: string[] = [];
  if (filtered.droppedByUser > 0)
    notes.push(
      `${filtered.droppedByUser} result${filtered.droppedByUser === 1 ? ' was' : 's were'} left out because the user keeps the web tools from their hosts (${filtered.denials.join(', ')}); do not try to reach them another way.`,
    );
  if (filtered.droppedByCall > 0)
    notes.push(`${filtered.droppedByCall} result${filtered.droppedByCall === 1 ? ' was' : 's were'} outside the domains asked for and left out.`);
  return notes.join(' ');
}
