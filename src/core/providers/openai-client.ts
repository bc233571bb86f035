import { OpenAI } from 'openai';
import { extractServerMessage } from './provider-errors.js';
import type { ProviderErrorContext } from './provider-errors.js';
import { sdkLogger } from './sdk-logger.js';

/** Local servers (Ollama, LM Studio, vLLM) ignore the key, but the SDK refuses to run without one. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** Where an OpenAI SDK client connects and with which key. */
export interface OpenAiClientOptions {
  readonly id: 'openai' | 'openai-compatible';
  readonly model: string;
  /** Optional only for openai-compatible; a placeholder is sent instead. */
  readonly apiKey?: string;
  /** Required for openai-compatible (e.g. http://localhost:11434/v1); defaults to api.openai.com. */
  readonly baseUrl?: string;
  /** Where the user sets the key, named when the key is rejected. */
  readonly keySource: string;
}

/** An OpenAI SDK client set up the way Smith needs it, with the context its errors are worded from. */
export function createOpenAiClient(options: OpenAiClientOptions): { client: OpenAI; errorContext: ProviderErrorContext } {
  const compatible = options.id === 'openai-compatible';
  const client = new OpenAI({
    apiKey: options.apiKey || PLACEHOLDER_API_KEY,
    baseURL: options.baseUrl,
    // Smith retries itself, visibly; SDK retries would hide minutes of waiting.
    maxRetries: 0,
    // Never forward OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment to a third-party server.
    ...(compatible ? { organization: null, project: null } : {}),
    fetch: openAiFetch,
    logger: sdkLogger,
  });
  const errorContext: ProviderErrorContext = {
    label: compatible ? 'the OpenAI-compatible server' : 'OpenAI',
    model: options.model,
    baseUrl: client.baseURL,
    keySource: options.keySource,
    apiKey: options.apiKey,
  };
  return { client, errorContext };
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
