// The one reader of web_search's settings (VS Code's smith.webSearch.*, the CLI's flags), and the
// choice of the backend a task uses.

import type { ProviderConfig } from '../providers/types.js';
import type { WebAccessPolicy } from '../web/web-access.js';
import { anthropicBackend } from './anthropic-search.js';
import { braveBackend } from './brave-search.js';
import { openAiBackend } from './openai-search.js';
import { SEARCH_BACKEND_NAMES, type SearchBackendName, type WebSearchBackend } from './search-backend.js';
import { searxngBackend } from './searxng-search.js';
import { tavilyBackend } from './tavily-search.js';

/** Every value of `smith.webSearch.backend` and `--web-search` (package.json's enum is checked against it). */
export const WEB_SEARCH_CHOICES = ['auto', ...SEARCH_BACKEND_NAMES, 'off'] as const;
export type WebSearchChoice = (typeof WEB_SEARCH_CHOICES)[number];

/** The environment variables the keys are read from when none is stored (the CLI reads only these). */
export const WEB_SEARCH_KEY_ENV_VARS = { brave: 'BRAVE_API_KEY', tavily: 'TAVILY_API_KEY' } as const;
export type KeyedBackend = keyof typeof WEB_SEARCH_KEY_ENV_VARS;

/** web_search's settings, checked. Keys are kept in memory only: never in settings files or the log. */
export interface WebSearchSettings {
  readonly backend: WebSearchChoice;
  /** A SearXNG instance's address (http or https). */
  readonly searxngUrl?: string;
  readonly keys?: Partial<Record<KeyedBackend, string>>;
  /** Where the keyed backends' requests go (absent: the services' own addresses). */
  readonly endpoints?: Partial<Record<KeyedBackend, string>>;
}

/** The settings as written (a setting's or a flag's value), checked; a string says what is wrong. */
export function readWebSearchSettings(raw: { readonly backend?: unknown; readonly searxngUrl?: unknown }): WebSearchSettings | string {
  if (raw.backend !== undefined && raw.backend !== null && typeof raw.backend !== 'string')
    return `the web search backend must be one of ${WEB_SEARCH_CHOICES.join(', ')}; got "${String(raw.backend)}"`;
  const backendText = typeof raw.backend === 'string' ? raw.backend.trim().toLowerCase() : '';
  const backend = backendText === '' ? 'auto' : WEB_SEARCH_CHOICES.find((c) => c === backendText);
  if (backend === undefined) return `the web search backend must be one of ${WEB_SEARCH_CHOICES.join(', ')}; got "${String(raw.backend)}"`;
  const url = typeof raw.searxngUrl === 'string' ? raw.searxngUrl.trim() : '';
  if (url !== '' && !isHttpUrl(url)) return `the SearXNG address must be an http:// or https:// URL; got "${url}"`;
  if (backend === 'searxng' && url === '') return 'the searxng backend needs the address of a SearXNG instance (smith.webSearch.searxngUrl, --searxng-url)';
  return { backend, ...(url !== '' ? { searxngUrl: url } : {}) };
}

/** The settings with the keys found (a blank key counts as none). */
export function withSearchKeys(settings: WebSearchSettings, keys: Partial<Record<KeyedBackend, string | undefined>>): WebSearchSettings {
  const present = Object.fromEntries(
    Object.entries(keys)
      .map(([name, key]) => [name, key?.trim() ?? ''])
      .filter(([, key]) => key !== ''),
  ) as Partial<Record<KeyedBackend, string>>;
  return Object.keys(present).length > 0 ? { ...settings, keys: { ...settings.keys, ...present } } : settings;
}

/** The keys of the environment (BRAVE_API_KEY, TAVILY_API_KEY). */
export function webSearchKeysFromEnv(env: NodeJS.ProcessEnv): Partial<Record<KeyedBackend, string | undefined>> {
  return { brave: env[WEB_SEARCH_KEY_ENV_VARS.brave], tavily: env[WEB_SEARCH_KEY_ENV_VARS.tavily] };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The backend a task uses, none (off, or nothing set up for auto), or why the chosen one cannot run. */
export type BackendChoice = { readonly backend: WebSearchBackend; readonly problem?: undefined } | { readonly backend?: undefined; readonly problem?: string };

/**
 * The backend for a task. `auto` takes the first one set up: a SearXNG address, a Brave key, a
 * Tavily key, then the provider's own search when the task's model is Claude on Anthropic's API or
 * a model on OpenAI's API;
 * with none, web_search is off. A backend named outright that is not set up is a problem.
 * Requests to SearXNG, Brave and Tavily go only where `policy` lets the web tools go.
 */
export function chooseSearchBackend(settings: WebSearchSettings | undefined, provider: ProviderConfig | undefined, policy: WebAccessPolicy): BackendChoice {
  const choice = settings?.backend ?? 'auto';
  if (choice === 'off') return {};
  const order: readonly SearchBackendName[] = choice === 'auto' ? ['searxng', 'brave', 'tavily', 'anthropic', 'openai'] : [choice];
  for (const name of order) {
    const made = makeBackend(name, settings, provider, policy);
    if (typeof made !== 'string') return { backend: made };
    if (choice !== 'auto') return { problem: `web_search is off: ${made}` };
  }
  return {};
}

function makeBackend(
  name: SearchBackendName,
  settings: WebSearchSettings | undefined,
  provider: ProviderConfig | undefined,
  policy: WebAccessPolicy,
): WebSearchBackend | string {
  switch (name) {
    case 'searxng':
      return settings?.searxngUrl ? searxngBackend(settings.searxngUrl, policy) : 'no SearXNG address is set (smith.webSearch.searxngUrl, --searxng-url)';
    case 'brave':
    case 'tavily': {
      const key = settings?.keys?.[name];
      if (!key)
        return `no ${name === 'brave' ? 'Brave Search' : 'Tavily'} API key is set (${WEB_SEARCH_KEY_ENV_VARS[name]}, or "Smith: Set Web Search API Key" in VS Code)`;
      const endpoint = settings?.endpoints?.[name];
      const options = endpoint ? { endpoint } : {};
      return name === 'brave' ? braveBackend(key, policy, options) : tavilyBackend(key, policy, options);
    }
    case 'anthropic':
      // Claude on Vertex AI or Bedrock, and other providers, have no web search Smith can ask for.
      if (provider?.provider !== 'anthropic') return "Anthropic's web search needs the anthropic provider (Claude on Anthropic's API)";
      return anthropicBackend({
        model: provider.model,
        ...(provider.apiKey ? { apiKey: provider.apiKey } : {}),
        ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
      });
    case 'openai':
      // Azure OpenAI and compatible servers may not offer the Responses API's web_search; OpenAI's own does.
      if (provider?.provider !== 'openai') return "OpenAI's web search needs the openai provider (a model on OpenAI's API)";
      return openAiBackend({
        model: provider.model,
        ...(provider.apiKey ? { apiKey: provider.apiKey } : {}),
        ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
      });
  }
}
