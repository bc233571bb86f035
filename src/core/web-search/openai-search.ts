// OpenAI's own web search (the Responses API's web_search tool), asked for in a request of its own:
// the model searches on OpenAI's side (a web_search_call item, whose sources list the pages) and
// answers with url_citation annotations, which give the results and, from the sentence each cites
// after, the snippets. The task's conversation is never sent with it.

import type { Response, ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
import { createOpenAiClient } from '../providers/openai-client.js';
import { openAiSdk } from '../providers/provider-sdks.js';
import { MAX_SNIPPET_CHARS, plainText, searchResult } from './result-text.js';
import { type SearchAnswer, type SearchRequest, type SearchResult, type WebSearchBackend, WebSearchFailure } from './search-backend.js';

/** The OpenAI account and model the search request goes to (the task's own). */
export interface OpenAiSearchAccount {
  readonly apiKey?: string;
  readonly baseUrl?: string;
  readonly model: string;
}

const OPENAI_SEARCH_TIMEOUT_MS = 90_000;
const MAX_OUTPUT_TOKENS = 1500;
const INSTRUCTIONS =
  'You run one web search for a coding agent. Search the web once with the query as given. Then, for each result, write one line with its most relevant sentence, citing it. Write nothing else.';

/** The backend that asks the task's OpenAI model to search with the Responses API's web_search tool. */
export function openAiBackend(account: OpenAiSearchAccount): WebSearchBackend {
  const { client } = createOpenAiClient({
    id: 'openai',
    model: account.model,
    keySource: 'OPENAI_API_KEY',
    api: 'responses',
    ...(account.apiKey ? { apiKey: account.apiKey } : {}),
    ...(account.baseUrl ? { baseUrl: account.baseUrl } : {}),
  });
  return {
    name: 'openai',
    label: "OpenAI's web search",
    destination: `OpenAI (${client.baseURL.replace(/^https?:\/\//, '').replace(/\/+$/, '')}, model ${account.model})`,
    async search(request, signal) {
      const timeout = AbortSignal.timeout(OPENAI_SEARCH_TIMEOUT_MS);
      let response: Response;
      try {
        response = await client.responses.create(openAiSearchParams(request, account.model), { signal: AbortSignal.any([signal, timeout]) });
      } catch (error) {
        if (signal.aborted) throw error;
        if (timeout.aborted) throw new WebSearchFailure(`OpenAI's web search gave no answer within ${OPENAI_SEARCH_TIMEOUT_MS / 1000} s.`);
        throw new WebSearchFailure(apiErrorMessage(error));
      }
      return openAiAnswerOf(response, request.maxResults);
    },
  };
}

/** The request: the query as the input, the web_search tool (its filter takes allowed domains only; the tool filters blocked ones). */
export function openAiSearchParams(request: SearchRequest, model: string): ResponseCreateParamsNonStreaming {
  return {
    model,
    instructions: INSTRUCTIONS,
    input: request.query,
    tools: [{ type: 'web_search', ...(request.allowedDomains.length > 0 ? { filters: { allowed_domains: [...request.allowedDomains] } } : {}) }],
    tool_choice: 'required',
    include: ['web_search_call.action.sources'],
    max_output_tokens: MAX_OUTPUT_TOKENS,
    store: false,
  };
}

/** The cited pages first (each with the sentence before its citation), then the other sources of the search. */
export function openAiAnswerOf(response: Response, maxResults: number): SearchAnswer {
  const usage = { inputTokens: response.usage?.input_tokens ?? 0, outputTokens: response.usage?.output_tokens ?? 0 };
  const calls = response.output.filter((item) => item.type === 'web_search_call');
  if (calls.length === 0) {
    const said = plainText(response.output_text ?? '', 200);
    throw new WebSearchFailure(`The model did not run OpenAI's web search${said ? `; it answered: "${said}"` : ''}.`);
  }
  if (calls.every((call) => call.status === 'failed')) throw new WebSearchFailure("OpenAI's web search failed.");
  const results: SearchResult[] = [];
  const seen = new Set<string>();
  const add = (title: unknown, url: string, snippet: string) => {
    const result = searchResult(title, url, snippet);
    if (result && !seen.has(result.url) && results.length < maxResults) {
      seen.add(result.url);
      results.push(result);
    }
  };
  for (const item of response.output) {
    if (item.type !== 'message') continue;
    for (const part of item.content) {
      if (part.type !== 'output_text') continue;
      for (const note of part.annotations) {
        if (note.type === 'url_citation') add(note.title, note.url, plainText(sentenceBefore(part.text, note.start_index), MAX_SNIPPET_CHARS));
      }
    }
  }
  for (const call of calls) {
    const action = call.action as { type?: string; sources?: { type?: string; url?: string }[] } | undefined;
    for (const source of action?.type === 'search' ? (action.sources ?? []) : []) if (typeof source.url === 'string') add('', source.url, '');
  }
  return { results, usage };
}

/** The sentence (or line) a citation at `index` follows, its own full stop kept. */
function sentenceBefore(text: string, index: number): string {
  const before = text.slice(0, Math.max(0, Math.min(index, text.length))).trimEnd();
  // The previous sentence ends at a full stop followed by a space, not at this sentence's own.
  const inner = before.replace(/[.!?]+$/, '');
  let start = inner.lastIndexOf('\n') + 1;
  for (const match of inner.matchAll(/[.!?]\s+/g)) start = Math.max(start, match.index + match[0].length);
  return before.slice(start).trim();
}

function apiErrorMessage(error: unknown): string {
  const { APIError, APIConnectionError } = openAiSdk();
  if (error instanceof APIConnectionError) return `OpenAI could not be reached for the web search: ${error.message}.`;
  if (error instanceof APIError) {
    const status = error.status;
    const detail = plainText((error.error as { message?: unknown } | undefined)?.message ?? error.message, 200);
    if (status === 401 || status === 403) return `OpenAI refused the web search (HTTP ${status}): ${detail}`;
    if (status === 429) return `OpenAI is rate limiting (HTTP 429); wait before searching again. ${detail}`;
    if (status !== undefined && status >= 500) return `OpenAI had a server error (HTTP ${status}) during the web search; try again later.`;
    return `OpenAI refused the web search request (HTTP ${status ?? 'error'}): ${detail}`;
  }
  return `OpenAI's web search failed: ${(error as Error).message ?? String(error)}`;
}
