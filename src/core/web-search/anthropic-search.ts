// Anthropic's own web search (the server tool web_search_20250305), asked for in a request of its
// own: the model runs the search on Anthropic's side (server_tool_use), the results come back as a
// web_search_tool_result block, and its answer quotes them with web_search_result_location
// citations, which give the snippets. The task's conversation is never sent with it.

import type { Message, MessageCreateParamsNonStreaming, WebSearchTool20250305 } from '@anthropic-ai/sdk/resources/messages';
import { anthropicSdk } from '../providers/provider-sdks.js';
import { sdkLogger } from '../providers/sdk-logger.js';
import { MAX_SNIPPET_CHARS, plainText, searchResult } from './result-text.js';
import { type SearchAnswer, type SearchRequest, type SearchResult, type WebSearchBackend, WebSearchFailure } from './search-backend.js';

/** The Anthropic account and model the search request goes to (the task's own). */
export interface AnthropicSearchAccount {
  readonly apiKey?: string;
  readonly baseUrl?: string;
  readonly model: string;
}

/** How long the search request may take: the model searches, then writes a few lines. */
const ANTHROPIC_SEARCH_TIMEOUT_MS = 90_000;
/** Enough for one quoted line per result. */
const MAX_OUTPUT_TOKENS = 1500;

const INSTRUCTIONS =
  'You run one web search for a coding agent. Call the web_search tool exactly once with the query as given. Then, for each result, write one line quoting its most relevant sentence, with its citation. Write nothing else.';

/** The backend that asks Claude to search with Anthropic's server tool. */
export function anthropicBackend(account: AnthropicSearchAccount): WebSearchBackend {
  const { Anthropic } = anthropicSdk();
  const client = new Anthropic({
    apiKey: account.apiKey ?? null,
    maxRetries: 0,
    logger: sdkLogger,
    ...(account.baseUrl ? { baseURL: account.baseUrl } : {}),
  });
  return {
    name: 'anthropic',
    label: "Anthropic's web search",
    destination: `Anthropic (${client.baseURL.replace(/^https?:\/\//, '').replace(/\/+$/, '')}, model ${account.model})`,
    async search(request, signal) {
      const timeout = AbortSignal.timeout(ANTHROPIC_SEARCH_TIMEOUT_MS);
      let message: Message;
      try {
        message = await client.messages.create(searchParams(request, account.model), { signal: AbortSignal.any([signal, timeout]) });
      } catch (error) {
        if (signal.aborted) throw error;
        if (timeout.aborted) throw new WebSearchFailure(`Anthropic's web search gave no answer within ${ANTHROPIC_SEARCH_TIMEOUT_MS / 1000} s.`);
        throw new WebSearchFailure(apiErrorMessage(error));
      }
      return answerOf(message, request.maxResults);
    },
  };
}

/** The request: the query as the only message, the server tool with the domain limits, one search. */
export function searchParams(request: SearchRequest, model: string): MessageCreateParamsNonStreaming {
  const tool: WebSearchTool20250305 = {
    type: 'web_search_20250305',
    name: 'web_search',
    max_uses: 1,
    ...(request.allowedDomains.length > 0 ? { allowed_domains: [...request.allowedDomains] } : {}),
    ...(request.blockedDomains.length > 0 && request.allowedDomains.length === 0 ? { blocked_domains: [...request.blockedDomains] } : {}),
  };
  return {
    model,
    max_tokens: MAX_OUTPUT_TOKENS,
    system: INSTRUCTIONS,
    messages: [{ role: 'user', content: request.query }],
    tools: [tool],
  };
}

/** The results of the web_search_tool_result blocks, each with the first sentence the answer quoted from it. */
export function answerOf(message: Message, maxResults: number): SearchAnswer {
  const usage = { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens };
  const quotes = new Map<string, string>();
  for (const block of message.content) {
    if (block.type !== 'text') continue;
    for (const citation of block.citations ?? []) {
      if (citation.type === 'web_search_result_location' && !quotes.has(citation.url)) quotes.set(citation.url, citation.cited_text);
    }
  }
  const results: SearchResult[] = [];
  let searched = false;
  for (const block of message.content) {
    if (block.type !== 'web_search_tool_result') continue;
    searched = true;
    const content = block.content;
    if (!Array.isArray(content)) throw new WebSearchFailure(`Anthropic's web search failed: ${serverErrorText(content.error_code)}.`);
    for (const item of content) {
      const snippet = quotes.get(item.url) ?? (item.page_age ? `(page age: ${item.page_age})` : '');
      const result = searchResult(item.title, item.url, plainText(snippet, MAX_SNIPPET_CHARS));
      if (result && results.length < maxResults) results.push(result);
    }
  }
  if (!searched) {
    const said = plainText(message.content.map((b) => (b.type === 'text' ? b.text : '')).join(' '), 200);
    throw new WebSearchFailure(`The model did not run Anthropic's web search${said ? `; it answered: "${said}"` : ''}.`);
  }
  return { results, usage };
}

function serverErrorText(code: string): string {
  const texts: Record<string, string> = {
    too_many_requests: 'too many searches (rate limited); wait before searching again',
    query_too_long: 'the query is too long',
    invalid_tool_input: 'the query was not valid',
    unavailable: 'the search service is unavailable',
    max_uses_exceeded: 'more searches than allowed in one request',
  };
  return texts[code] ?? code;
}

/** An SDK error as a sentence: a refused key, a rate limit, web search not enabled, the network. */
function apiErrorMessage(error: unknown): string {
  const { APIError, APIConnectionError } = anthropicSdk();
  if (error instanceof APIConnectionError) return `Anthropic could not be reached for the web search: ${error.message}.`;
  if (error instanceof APIError) {
    const status = error.status;
    const detail = plainText((error.error as { error?: { message?: unknown } } | undefined)?.error?.message ?? error.message, 200);
    if (status === 401 || status === 403) return `Anthropic refused the web search (HTTP ${status}): ${detail}`;
    if (status === 429) return `Anthropic is rate limiting (HTTP 429); wait before searching again. ${detail}`;
    if (status !== undefined && status >= 500) return `Anthropic had a server error (HTTP ${status}) during the web search; try again later.`;
    return `Anthropic refused the web search request (HTTP ${status ?? 'error'}): ${detail}`;
  }
  return `Anthropic's web search failed: ${(error as Error).message ?? String(error)}`;
}
