import { ProviderAbortedError, ProviderError } from './types.js';

/** Where a failed request was going and how the user can fix credentials; used to word errors. */
export interface ProviderErrorContext {
  /** Who answered, as it reads inside a sentence: "OpenAI", "the OpenAI-compatible server". */
  readonly label: string;
  readonly model: string;
  readonly baseUrl: string;
  /** Where the API key comes from, e.g. "OPENAI_API_KEY (or the API key in Smith's settings)". */
  readonly keySource: string;
  /** Redacted from every message, in case a server echoes it back. */
  readonly apiKey?: string;
}

/** The error classes one Stainless-generated SDK (openai, @anthropic-ai/sdk) exports. */
export interface SdkErrorClasses {
  readonly APIError: abstract new (...args: never[]) => SdkApiError;
  readonly APIUserAbortError: abstract new (...args: never[]) => Error;
  readonly APIConnectionError: abstract new (...args: never[]) => Error;
}

interface SdkApiError extends Error {
  readonly status: number | undefined;
  readonly headers: Headers | undefined;
  readonly error: unknown;
}

// Server-side error types (Anthropic `error.type`, OpenAI-style `type`) that mean "try again later".
const RETRYABLE_ERROR_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'server_error']);

/**
 * Turns anything an SDK call or its stream threw into a ProviderError worded for the user.
 * `midStream` says whether response chunks were already being read, which changes what a
 * network failure means ("could not connect" vs "connection lost").
 */
export function toProviderError(
  err: unknown,
  sdk: SdkErrorClasses,
  context: ProviderErrorContext,
  signal: AbortSignal | undefined,
  midStream: boolean,
): ProviderError {
  if (err instanceof ProviderError) return err;
  // Checked first: an abort can surface as any kind of network error while the body is read.
  if (signal?.aborted || err instanceof sdk.APIUserAbortError) return new ProviderAbortedError();
  const redact = (message: string): string => redactKey(message, context.apiKey);
  if (err instanceof sdk.APIConnectionError) {
    return connectionError(describeCause(err), context, midStream, redact);
  }
  if (err instanceof sdk.APIError) {
    const serverMessage = extractServerMessage(err.error) ?? stripStatusPrefix(err.message);
    if (typeof err.status === 'number') {
      return statusError(err.status, serverMessage, retryAfterMs(err.headers), context, redact);
    }
    // An error event inside an otherwise healthy stream (Anthropic `event: error`, OpenAI `data: {error}`).
    const retryable = isRetryableErrorBody(err.error);
    return new ProviderError(redact(`${capitalize(context.label)} reported an error mid-response: ${serverMessage}`), undefined, retryable);
  }
  const network = networkFailureDetail(err);
  if (network !== undefined) return connectionError(network, context, midStream, redact);
  const detail = err instanceof Error ? err.message : String(err);
  return new ProviderError(redact(`Request to ${context.label} failed: ${detail}`));
}

/** The error a stream that simply stopped, without its end-of-message marker, should raise. */
export function truncatedStreamError(context: ProviderErrorContext): ProviderError {
  return new ProviderError(
    `The response from ${context.label} ended before it was complete (the connection was probably lost). Retrying usually helps.`,
    undefined,
    true,
  );
}

/** Finds the human-readable message in an error body of any common shape (OpenAI, Anthropic, FastAPI, Ollama). */
export function extractServerMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'detail', 'error_message']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  if ('error' in record) return extractServerMessage(record.error);
  const json = JSON.stringify(body);
  return json === '{}' ? undefined : truncate(json, 300);
}

function statusError(
  status: number,
  serverMessage: string,
  retryAfter: number | undefined,
  context: ProviderErrorContext,
  redact: (message: string) => string,
): ProviderError {
  const said = serverMessage ? ` Server said: ${serverMessage}` : '';
  if (status === 401 || status === 403) {
    const what = status === 401 ? 'rejected the API key' : 'refused access with this API key';
    return new ProviderError(redact(`${capitalize(context.label)} ${what} (HTTP ${status}). Check ${context.keySource}.${said}`), status, false);
  }
  if (status === 404) {
    return new ProviderError(
      redact(`Model "${context.model}" or the endpoint was not found at ${context.baseUrl} (HTTP 404). Check the model name and base URL.${said}`),
      status,
      false,
    );
  }
  if (status === 429) {
    const wait = retryAfter !== undefined ? ` The server asked to wait ${Math.ceil(retryAfter / 1000)}s.` : '';
    return new ProviderError(redact(`Rate limited by ${context.label} (HTTP 429).${wait}${said}`), status, true, retryAfter);
  }
  if (status >= 500) {
    return new ProviderError(redact(`Server error from ${context.label} (HTTP ${status}); this is usually temporary.${said}`), status, true, retryAfter);
  }
  // 408 Request Timeout and 409 Conflict are transient by definition (the SDKs retry them too).
  const retryable = status === 408 || status === 409;
  return new ProviderError(redact(`${capitalize(context.label)} rejected the request (HTTP ${status}): ${serverMessage || 'no details given'}`), status, retryable, retryAfter);
}

function connectionError(
  detail: string,
  context: ProviderErrorContext,
  midStream: boolean,
  redact: (message: string) => string,
): ProviderError {
  const message = midStream
    ? `The connection to ${context.label} was lost mid-response (${detail}). Retrying usually helps.`
    : `Could not connect to ${context.label} at ${context.baseUrl} (${detail}). Check your network connection and the base URL.`;
  return new ProviderError(redact(message), undefined, true);
}

// fetch (undici) reports a dropped body as a bare TypeError("terminated") with the socket error as
// its cause; the SDKs do not wrap errors raised while a stream is being read.
function networkFailureDetail(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (/^E[A-Z]+$/.test(code) || code.startsWith('UND_ERR'))) return describeCause(err);
    current = current.cause;
  }
  if (err instanceof TypeError && /terminated|fetch failed|network|socket/i.test(err.message)) return describeCause(err);
  return undefined;
}

// The outermost messages are generic ("Connection error.", "terminated", "fetch failed"); the
// innermost cause says why ("other side closed", "connect ECONNREFUSED 127.0.0.1:1234").
function describeCause(err: unknown): string {
  let deepest: Error | undefined;
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 6; depth++) {
    if (current.message) deepest = current;
    current = current.cause;
  }
  if (!deepest) return 'network error';
  const code = (deepest as { code?: unknown }).code;
  return typeof code === 'string' && !deepest.message.includes(code) ? `${deepest.message}, ${code}` : deepest.message;
}

function isRetryableErrorBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as Record<string, unknown>;
  if (typeof record.type === 'string' && RETRYABLE_ERROR_TYPES.has(record.type)) return true;
  // OpenRouter puts the upstream HTTP status in `code`.
  if (typeof record.code === 'number' && (record.code === 429 || record.code >= 500)) return true;
  return 'error' in record ? isRetryableErrorBody(record.error) : false;
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function redactKey(message: string, apiKey: string | undefined): string {
  return apiKey && apiKey.length >= 4 ? message.split(apiKey).join('[redacted]') : message;
}

// SDK messages look like "429 Too many requests"; the status is reported separately.
function stripStatusPrefix(message: string): string {
  return message.replace(/^\d{3}\s+/, '');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
