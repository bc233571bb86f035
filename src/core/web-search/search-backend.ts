// What every web_search backend is to the tool: a query in, results out, or a failure that says why.

/** The backends a user can choose, besides `auto` (the first one set up) and `off`. */
export const SEARCH_BACKEND_NAMES = ['anthropic', 'openai', 'brave', 'tavily', 'searxng'] as const;
export type SearchBackendName = (typeof SEARCH_BACKEND_NAMES)[number];

/** One result as every backend gives it. */
export interface SearchResult {
  readonly title: string;
  readonly url: string;
  /** A short text from the page (the backend's description or a quoted sentence); may be empty. */
  readonly snippet: string;
}

/** One search. */
export interface SearchRequest {
  readonly query: string;
  /** How many results to ask for (the tool keeps at most this many). */
  readonly maxResults: number;
  /** Only results from these hosts (and their subdomains); empty: any. */
  readonly allowedDomains: readonly string[];
  /** Never results from these hosts (and their subdomains). */
  readonly blockedDomains: readonly string[];
}

/** A backend's answer. */
export interface SearchAnswer {
  readonly results: readonly SearchResult[];
  /** Tokens a model spent to search (Anthropic's server tool runs inside a model request). */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
}

/** A search service web_search sends its queries to. */
export interface WebSearchBackend {
  readonly name: SearchBackendName;
  /** The service as people read it, e.g. "Brave Search". */
  readonly label: string;
  /** Where the queries go, for the approval: a host, or the provider that runs the search. */
  readonly destination: string;
  search(request: SearchRequest, signal: AbortSignal): Promise<SearchAnswer>;
}

/** Where a search API's requests go (absent: the service's own address) and how long a search may take (absent: SEARCH_TIMEOUT_MS). */
export interface BackendOptions {
  readonly endpoint?: string;
  readonly timeoutMs?: number;
}

/** A search that did not give results: the message says why, in words for the model and the user. */
export class WebSearchFailure extends Error {}
