import { ContextTooLongError, ProviderAbortedError, ProviderError } from './types.js';

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
interface SdkErrorClasses {
  readonly APIError: abstract new (...args: never[]) => SdkApiError;
  readonly APIUserAbortError: abstract new (...args: never[]) => Error;
  readonly APIConnectionError: abstract new (...args: never[]) => Error;
}

interface SdkApiError extends Error {
  readonly status: number | undefined;
  readonly headers: Headers | undefined;
  readonly error: unknown;
}

// OpenAI (code context_length_exceeded, "maximum context length"), vLLM/OpenRouter (same wording),
// Anthropic ("prompt is too long"), Gemini ("exceeds the maximum number of tokens"), llama.cpp
// ("exceeds the available context size"), the Responses API ("exceeds the context window").
const CONTEXT_TOO_LONG =
  /context_length_exceeded|maximum context length|prompt is too long|exceeds the maximum number of tokens|exceeds the (?:available )?context (?:window|size)|context length exceeded|request_too_large/i;
// 413 is Anthropic's request_too_large (over 32 MB), which truncation also cures; 422 is used by some proxies.
const CONTEXT_LENGTH_STATUSES = new Set([400, 413, 422]);

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
  if (err instanceof sdk.APIConnectionError) {
    return connectionError(describeCause(err), context, midStream);
  }
  if (err instanceof sdk.APIError) {
    const serverMessage = extractServerMessage(err.error) ?? stripStatusPrefix(err.message);
    if (typeof err.status === 'number') {
      return httpStatusError(err.status, serverMessage, context, { retryAfterMs: retryAfterMs(err.headers), body: err.error });
    }
    return midStreamErrorEvent(serverMessage, err.error, context);
  }
  return otherError(err, context, midStream);
}

/** Options for httpStatusError. */
interface HttpStatusErrorOptions {
  readonly retryAfterMs?: number;
  /** The parsed error body, searched for a context-length error code. */
  readonly body?: unknown;
  /** The vendor reports a bad key with a status other than 401 (Gemini answers 400 API_KEY_INVALID). */
  readonly keyRejected?: boolean;
}

/** The ProviderError for an HTTP error status, worded for the user and flagged retryable or context-too-long. */
export function httpStatusError(status: number, serverMessage: string, context: ProviderErrorContext, options: HttpStatusErrorOptions = {}): ProviderError {
  const redact = (message: string): string => redactKey(message, context.apiKey);
  const said = serverMessage ? ` Server said: ${asSentence(serverMessage)}` : '';
  if (status === 401 || status === 403 || options.keyRejected) {
    const what = status === 403 ? 'refused access with this API key' : 'rejected the API key';
    return new ProviderError(redact(`${capitalize(context.label)} ${what} (HTTP ${status}). Check ${context.keySource}.${said}`), status, false);
  }
  if (CONTEXT_LENGTH_STATUSES.has(status) && isContextTooLong(serverMessage, options.body)) {
    return new ContextTooLongError(redact(`The conversation is too long for model "${context.model}" (HTTP ${status}).${said}`), status);
  }
  if (status === 404) {
    return new ProviderError(
      redact(`Model "${context.model}" or the endpoint was not found at ${context.baseUrl} (HTTP 404). Check the model name and base URL.${said}`),
      status,
      false,
    );
  }
  const retryAfter = options.retryAfterMs;
  if (status === 429) {
    const wait = retryAfter !== undefined ? ` The server asked to wait ${Math.ceil(retryAfter / 1000)}s.` : '';
    return new ProviderError(redact(`Rate limited by ${context.label} (HTTP 429).${wait}${said}`), status, true, retryAfter);
  }
  if (status >= 500) {
    return new ProviderError(redact(`Server error from ${context.label} (HTTP ${status}); this is usually temporary.${said}`), status, true, retryAfter);
  }
  // 408 Request Timeout and 409 Conflict are transient by definition (the SDKs retry them too).
  const retryable = status === 408 || status === 409;
  return new ProviderError(
    redact(`${capitalize(context.label)} rejected the request (HTTP ${status}): ${asSentence(serverMessage || 'no details given')}`),
    status,
    retryable,
    retryAfter,
  );
}

/** An error event inside an otherwise healthy stream (Anthropic `event: error`, OpenAI `data: {error}`). */
export function midStreamErrorEvent(serverMessage: string, body: unknown, context: ProviderErrorContext): ProviderError {
  const message = redactKey(`${capitalize(context.label)} reported an error mid-response: ${asSentence(serverMessage)}`, context.apiKey);
  if (isContextTooLong(serverMessage, body)) return new ContextTooLongError(message);
  return new ProviderError(message, undefined, isRetryableErrorBody(body));
}

/**
 * Errors that are not HTTP statuses: unparseable stream data, network failures, anything else.
 * `midStream` says whether chunks were already being read ("could not connect" vs "connection lost").
 */
export function otherError(err: unknown, context: ProviderErrorContext, midStream: boolean): ProviderError {
  // The SDKs JSON.parse each event's data and let the SyntaxError through.
  if (err instanceof SyntaxError) {
    return new ProviderError(
      redactKey(
        `${capitalize(context.label)} sent a malformed response that Smith could not parse (${err.message}). ` +
          `If this keeps happening, the server or a proxy in between does not speak the API correctly.`,
        context.apiKey,
      ),
    );
  }
  const network = networkFailureDetail(err);
  if (network !== undefined) return connectionError(network, context, midStream);
  const detail = err instanceof Error ? err.message : String(err);
  return new ProviderError(redactKey(`Request to ${context.label} failed: ${asSentence(detail)}`, context.apiKey));
}

/** Whether an error message or body is a vendor's way of saying the prompt exceeds the context window. */
export function isContextTooLong(serverMessage: string, body?: unknown): boolean {
  if (CONTEXT_TOO_LONG.test(serverMessage)) return true;
  if (body === undefined || body === null) return false;
  const json = typeof body === 'string' ? body : JSON.stringify(body);
  return CONTEXT_TOO_LONG.test(json.slice(0, 2000));
}

/** The error a stream that simply stopped, without its end-of-message marker, should raise. */
export function truncatedStreamError(context: ProviderErrorContext): ProviderError {
  return new ProviderError(
    `The response from ${context.label} ended before it was complete (the connection was probably lost). Retrying usually helps.`,
    undefined,
    true,
  );
}

/** The error of an attempt that received no byte for `idleMs` (the idle timeout); retryable. */
export function idleTimeoutError(context: Pick<ProviderErrorContext, 'label'>, idleMs: number, phase: 'headers' | 'body'): ProviderError {
  const where = phase === 'headers' ? 'before the response started' : 'after the response started';
  return new ProviderError(
    `No data from ${context.label} for ${formatSeconds(idleMs)} ${where} (the idle timeout); this attempt was abandoned.`,
    undefined,
    true,
  );
}

/** What a successful answer that is not an event stream looked like. */
interface NotAStreamDetails {
  /** The request's URL, without its query string. */
  readonly url: string;
  readonly status: number;
  /** The content-type header, '' when absent. */
  readonly contentType: string;
  /** The start of the body. */
  readonly start: string;
}

/** A 2xx answer that is not the event stream asked for (an HTML page from a proxy, a wrong base URL); not retryable. */
export function notAStreamError(context: ProviderErrorContext, details: NotAStreamDetails): ProviderError {
  const type = details.contentType ? `content type "${details.contentType}"` : 'no content type';
  const snippet = details.start.replace(/\s+/g, ' ').trim();
  const began = snippet ? ` It began: ${truncate(snippet, 160)}` : ' Its body was empty.';
  return new ProviderError(
    redactKey(
      `${details.url} answered HTTP ${details.status} with ${type}, not the event stream ${context.label} sends. ` +
        `Check the base URL (${context.baseUrl}) and any proxy in between.${began}`,
      context.apiKey,
    ),
    details.status,
    false,
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

function connectionError(detail: string, context: ProviderErrorContext, midStream: boolean): ProviderError {
  const message = midStream
    ? `The connection to ${context.label} was lost mid-response (${detail}). Retrying usually helps.`
    : `Could not connect to ${context.label} at ${context.baseUrl} (${detail}). Check your network connection and the base URL.`;
  return new ProviderError(redactKey(message, context.apiKey), undefined, true);
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

/** A server's words as the end of a sentence of ours: trimmed, with a full stop when they have none. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function formatSeconds(ms: number): string {
  return `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
