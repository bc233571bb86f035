import type { OpenAI } from 'openai';
import { openAiSdk } from './provider-sdks.js';
import { extractServerMessage } from './provider-errors.js';
import type { ProviderErrorContext } from './provider-errors.js';
import { sdkLogger } from './sdk-logger.js';
import { vendorErrorContext } from './vendor-provider.js';
import type { ProviderId } from './types.js';
import { wireQuirks } from './wire-quirks.js';
import { providerEntry } from '../../shared/providers.js';
import type { OpenAiApi } from '../../shared/provider-schemas.js';

/** Local servers (Ollama, LM Studio, vLLM) ignore the key, but the SDK refuses to run without one. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** The Azure OpenAI `api-version` used when none is configured (the GA version with streamed usage and tools). */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

/** Where an OpenAI SDK client connects and with which key. */
export interface OpenAiClientOptions {
  /** openai, azure-openai, or any provider spoken to as an OpenAI-compatible server. */
  readonly id: ProviderId;
  readonly model: string;
  /** Optional where the provider needs none (local servers); a placeholder is sent instead. */
  readonly apiKey?: string;
  /** The server's base URL (Azure: the resource's endpoint); defaults to the provider's own. */
  readonly baseUrl?: string;
  /** Azure OpenAI's `api-version` query parameter. */
  readonly apiVersion?: string;
  /** Where the user sets the key, named when the key is rejected. */
  readonly keySource: string;
  /** The API the client is for: Azure OpenAI serves the Responses API at another path (default chat-completions). */
  readonly api?: OpenAiApi;
}

/**
 * An OpenAI SDK client set up the way Smith needs it, with the context its errors are worded from.
 * `fetchImpl` wraps the HTTP calls (the idle guard of one request); made anew rather than with
 * `withOptions`, which loses AzureOpenAI's api-version.
 */
export function createOpenAiClient(
  options: OpenAiClientOptions,
  fetchImpl: typeof openAiFetch = openAiFetch,
): { client: OpenAI; errorContext: ProviderErrorContext } {
  const entry = providerEntry(options.id);
  const common = {
    // Smith retries itself, visibly; SDK retries would hide minutes of waiting.
    maxRetries: 0,
    // Never forward OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment to a third-party server.
    ...(options.id === 'openai' ? {} : { organization: null, project: null }),
    fetch: fetchImpl,
    logger: sdkLogger,
    ...(wireQuirks(options.id).headers ? { defaultHeaders: { ...wireQuirks(options.id).headers } } : {}),
  };
  const { AzureOpenAI, OpenAI } = openAiSdk();
  const apiKey = options.apiKey || PLACEHOLDER_API_KEY;
  let client: OpenAI;
  if (entry.api === 'azure-openai' && options.api === 'responses') {
    // Azure's v1 API (/openai/v1/responses) takes the deployment as `model` and no api-version.
    const { endpoint } = azureEndpoint(options.baseUrl ?? '', options.apiVersion);
    client = new OpenAI({ ...common, apiKey, baseURL: `${endpoint}/openai/v1`, defaultHeaders: { ...wireQuirks(options.id).headers, 'api-key': apiKey } });
  } else if (entry.api === 'azure-openai') {
    client = new AzureOpenAI({ ...common, ...azureEndpoint(options.baseUrl ?? '', options.apiVersion), apiKey });
  } else {
    client = new OpenAI({ ...common, apiKey, baseURL: options.baseUrl || entry.baseUrl || undefined });
  }
  const errorContext = vendorErrorContext(options.id === 'openai-compatible' ? 'the OpenAI-compatible server' : entry.label, options, client.baseURL);
  return { client, errorContext };
}

/**
 * The endpoint and api-version of an Azure OpenAI resource. Users paste what the Azure portal shows,
 * which may be a whole request URL (…/openai/deployments/NAME/chat/completions?api-version=…): the
 * origin is the endpoint and its api-version is used unless one is configured.
 */
export function azureEndpoint(baseUrl: string, apiVersion: string | undefined): { endpoint: string; apiVersion: string } {
  let endpoint = baseUrl.trim();
  let fromUrl: string | undefined;
  try {
    const url = new URL(endpoint);
    fromUrl = url.searchParams.get('api-version') ?? undefined;
    // The SDK appends /openai/deployments/NAME itself.
    const openai = url.pathname.indexOf('/openai');
    endpoint = `${url.origin}${openai >= 0 ? url.pathname.slice(0, openai) : url.pathname.replace(/\/+$/, '')}`;
  } catch {
    // Not a URL: the SDK's own error says so when the request is made.
  }
  return { endpoint, apiVersion: apiVersion?.trim() || fromUrl || DEFAULT_AZURE_API_VERSION };
}

/**
 * The SDK only reads an error message from `{"error": {"message"}}` bodies and shows
 * "status code (no body)" for anything else, but compatible servers answer `{"detail": ...}`
 * (FastAPI, vLLM), `{"error": "..."}` (Ollama) or `{"message": ...}`; rewrite those into
 * OpenAI's shape so the user sees why the request failed.
 */
export async function openAiFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.status < 400) return response;
  const text = await response.text();
  return new Response(openAiShapedErrorBody(text), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function openAiShapedErrorBody(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text; // not JSON: the SDK shows plain text as it is
  }
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return text;
  }
  const details = typeof error === 'object' && error !== null ? error : {};
  return JSON.stringify({ error: { ...details, message: extractServerMessage(body) ?? text } });
}
