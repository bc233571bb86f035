import { EDITOR_MODELS_ONLY_IN_VS_CODE } from './editor-models.js';
import { factsFromLmStudio, factsFromModelList, factsFromOllamaShow, namesFromOllamaTags, type ModelFacts } from './model-facts.js';
import { extractServerMessage, httpStatusError, otherError, type ProviderErrorContext } from './provider-errors.js';
import { ProviderAbortedError, ProviderError } from './types.js';
import type { ProviderConfig } from './types.js';
import { wireQuirks } from './wire-quirks.js';
import { API_KEY_ENV_VARS, providerEntry, type ProviderEntry } from '../../shared/providers.js';

// Ollama's /api/show is one request per model; a few at a time keep a big library quick without
// loading the server.
const OLLAMA_SHOW_CONCURRENCY = 4;

/** Where a provider's models are listed: its base URL (the configured one, else the preset's) and the words for its errors. */
interface ModelEndpoint {
  readonly entry: ProviderEntry;
  readonly baseUrl: string;
  readonly context: ProviderErrorContext;
  readonly headers: Readonly<Record<string, string>>;
}

/** The endpoint a provider lists its models at, or a ProviderError when it has none or needs an address first. */
export function modelEndpoint(config: ProviderConfig): ModelEndpoint {
  const entry = providerEntry(config.provider);
  if (entry.models === 'editor') throw new ProviderError(EDITOR_MODELS_ONLY_IN_VS_CODE);
  if (entry.models === 'catalogue') {
    throw new ProviderError(`Listing models is only supported for OpenAI and the OpenAI-compatible providers, not ${config.provider}.`);
  }
  const baseUrl = (config.baseUrl?.trim() || entry.baseUrl).replace(/\/+$/, '');
  if (!baseUrl) {
    throw new ProviderError(
      "The openai-compatible provider needs the server's base URL before its models can be listed. Set it with --base-url or in Smith's settings.",
    );
  }
  const apiKey = config.apiKey?.trim() || undefined;
  const context: ProviderErrorContext = {
    label: config.provider === 'openai-compatible' ? 'the OpenAI-compatible server' : entry.label,
    model: config.model,
    baseUrl,
    keySource: `${API_KEY_ENV_VARS[config.provider]} (or the API key in Smith's settings)`,
    apiKey,
  };
  const headers = { ...wireQuirks(config.provider).headers, ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
  return { entry, baseUrl, context, headers };
}

/**
 * Every model the provider offers, with the facts it tells about each (window, prices, images,
 * tools), from the endpoint its preset names: GET /models, Ollama's /api/tags and /api/show, LM
 * Studio's /api/v0/models. Throws a ProviderError worded for the user when the server cannot be
 * reached, refuses, has no such endpoint or answers something that is not a model list.
 */
export async function discoverModels(config: ProviderConfig, signal?: AbortSignal): Promise<ModelFacts[]> {
  const endpoint = modelEndpoint(config);
  switch (endpoint.entry.models) {
    case 'ollama': {
      const names = parsed(endpoint, 'GET /api/tags', await requestJson(endpoint, 'GET', '/api/tags', signal), namesFromOllamaTags);
      return mapLimited(names, OLLAMA_SHOW_CONCURRENCY, (name) => ollamaModel(endpoint, name, signal));
    }
    case 'lmstudio':
      return parsed(endpoint, 'GET /api/v0/models', await requestJson(endpoint, 'GET', '/api/v0/models', signal), factsFromLmStudio);
    default: {
      const listing = endpoint.entry.models;
      return parsed(endpoint, 'GET /models', await requestJson(endpoint, 'GET', '/models', signal), (body) => factsFromModelList(body, listing));
    }
  }
}

/**
 * The facts of one model: Ollama answers for one model (/api/show), the others list all of theirs.
 * Undefined when the provider does not list it.
 */
export async function discoverModel(config: ProviderConfig, modelId: string, signal?: AbortSignal): Promise<ModelFacts | undefined> {
  const endpoint = modelEndpoint(config);
  if (endpoint.entry.models === 'ollama') return ollamaModel(endpoint, modelId, signal);
  return (await discoverModels(config, signal)).find((model) => model.id === modelId);
}

async function ollamaModel(endpoint: ModelEndpoint, name: string, signal: AbortSignal | undefined): Promise<ModelFacts> {
  const body = await requestJson(endpoint, 'POST', '/api/show', signal, { model: name });
  return parsed(endpoint, 'POST /api/show', body, (json) => factsFromOllamaShow(name, json));
}

/** The server's native API sits beside its OpenAI-compatible /v1 (Ollama, LM Studio). */
function urlFor(endpoint: ModelEndpoint, path: string): string {
  const native = path.startsWith('/api/');
  return `${native ? endpoint.baseUrl.replace(/\/v1$/, '') : endpoint.baseUrl}${path}`;
}

async function requestJson(endpoint: ModelEndpoint, method: 'GET' | 'POST', path: string, signal: AbortSignal | undefined, body?: unknown): Promise<unknown> {
  const url = urlFor(endpoint, path);
  const what = `${method} ${path}`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method,
      headers: { accept: 'application/json', ...endpoint.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
    text = await response.text();
  } catch (err) {
    if (signal?.aborted) throw new ProviderAbortedError();
    throw otherError(err, endpoint.context, false);
  }
  const json = parseJson(text);
  if (response.status === 404 || response.status === 405) {
    throw new ProviderError(
      `${capitalized(endpoint.context.label)} at ${endpoint.baseUrl} does not list its models (${what} answered HTTP ${response.status}). Type the model name instead.`,
      response.status,
      false,
    );
  }
  if (response.status >= 400) {
    const message = (json === undefined ? undefined : extractServerMessage(json)) ?? text.slice(0, 200);
    throw httpStatusError(response.status, message, endpoint.context, { body: json });
  }
  if (json === undefined) {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new ProviderError(`${capitalized(endpoint.context.label)} answered ${what} at ${url} with something that is not JSON (${type}): ${preview(text)}`);
  }
  return json;
}

/** The parser's result, or a ProviderError saying the answer was not the model list expected. */
function parsed<T>(endpoint: ModelEndpoint, what: string, body: unknown, parse: (body: unknown) => T): T {
  try {
    return parse(body);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ProviderError(
      `${capitalized(endpoint.context.label)} answered ${what} with JSON Smith does not understand (${why}): ${preview(JSON.stringify(body))}`,
    );
  }
}

async function mapLimited<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? '(empty)' : flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
