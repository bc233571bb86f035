// One request to a search API with everything that can go wrong turned into a WebSearchFailure:
// unreachable hosts, HTTP errors, answers that are not JSON, huge or endless bodies, silence.

import { guardedFetch, WebAccessRefused } from '../web/guarded-fetch.js';
import type { WebAccessPolicy } from '../web/web-access.js';
import { WebSearchFailure } from './search-backend.js';

/** Bytes of an answer read at most: a page of results is a few dozen KB; more is not a search answer. */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
/** How long a search may take, first byte to last. */
export const SEARCH_TIMEOUT_MS = 20_000;

/** One API call. */
interface JsonRequest {
  readonly url: URL;
  /** The service as people read it ("Brave Search"), for messages. */
  readonly label: string;
  readonly policy: WebAccessPolicy;
  readonly signal: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body: the call is a POST. */
  readonly post?: unknown;
  /** A backend's own word on a status (SearXNG's 403 when JSON is not enabled). */
  readonly statusHint?: (status: number) => string | undefined;
  readonly timeoutMs?: number | undefined;
  readonly maxBytes?: number;
}

/** The answer's JSON, or a WebSearchFailure; an abort by the caller is thrown as it came. */
export async function requestJson(request: JsonRequest): Promise<unknown> {
  const timeoutMs = request.timeoutMs ?? SEARCH_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([request.signal, timeout]);
  const where = `${request.label} (${request.url.host})`;
  const seconds = timeoutMs / 1000;
  const failure = (error: unknown): Error => {
    if (request.signal.aborted) return error as Error;
    if (timeout.aborted) return new WebSearchFailure(`${where} gave no complete answer within ${seconds} s.`);
    if (error instanceof WebSearchFailure) return error;
    if (error instanceof WebAccessRefused) return new WebSearchFailure(`${where} was not asked: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    const message = (error as Error).message ?? String(error);
    return new WebSearchFailure(`${where} could not be reached: ${code ? `${code} (${message})` : message}.`);
  };
  let text: string;
  let status: number;
  let contentType: string;
  try {
    const response = await guardedFetch(request.url.href, {
      policy: request.policy,
      signal,
      headers: {
        accept: 'application/json',
        ...(request.post !== undefined ? { 'content-type': 'application/json' } : {}),
        ...request.headers,
      },
      ...(request.post !== undefined ? { post: JSON.stringify(request.post) } : {}),
    });
    status = response.status;
    contentType = response.contentType;
    const ok = status >= 200 && status < 300;
    // An error's body is only looked at for its message.
    text = await readBounded(response.body, ok ? (request.maxBytes ?? MAX_ANSWER_BYTES) : 4096, ok, where);
  } catch (error) {
    throw failure(error);
  }
  if (status < 200 || status >= 300) throw new WebSearchFailure(statusMessage(where, status, text, request.statusHint?.(status)));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const start = text.trim().slice(0, 80).replace(/\s+/g, ' ');
    throw new WebSearchFailure(
      `${where} answered with something that is not JSON (${contentType || 'no content type'}${start ? `, beginning "${start}"` : ', empty'}).`,
    );
  }
}

/** The body as text, at most `maxBytes`; `strict`: more than that is a failure rather than cut. */
async function readBounded(body: AsyncIterable<Buffer> & { destroy(): void }, maxBytes: number, strict: boolean, where: string): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        if (strict) throw new WebSearchFailure(`${where} answered with more than ${Math.round(maxBytes / 1024 / 1024)} MB; the answer was not read.`);
        chunks.push(chunk.subarray(0, chunk.length - (bytes - maxBytes)));
        break;
      }
      chunks.push(chunk);
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What an HTTP error means for the user: a key refused, a rate limit, the service's own trouble. */
function statusMessage(where: string, status: number, body: string, hint: string | undefined): string {
  const detail = errorDetail(body);
  const said = detail ? ` It said: "${detail}".` : '';
  if (hint) return `${where} answered HTTP ${status}: ${hint}.${said}`;
  if (status === 401 || status === 403) return `${where} refused the API key (HTTP ${status}); check the key in the settings.${said}`;
  if (status === 429) return `${where} is rate limiting the searches (HTTP 429); wait before searching again, or use another backend.${said}`;
  if (status >= 500) return `${where} had a server error (HTTP ${status}); try again later.${said}`;
  return `${where} answered HTTP ${status}.${said}`;
}

/** A short message from an error body: a JSON error's message, else its first line of text. */
function errorDetail(body: string): string {
  let text = body;
  try {
    text = messageOf(JSON.parse(body) as unknown);
  } catch {
    // Not JSON: the text as it is.
  }
  // An HTML error page says nothing useful in its markup.
  if (/^\s*</.test(text)) text = '';
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** The message of a JSON error body: `error.message`, `error.detail`, `error`, `message`, `detail` (as APIs spell it), or the body if it is a string. */
function messageOf(json: unknown): string {
  if (typeof json === 'string') return json;
  if (typeof json !== 'object' || json === null) return '';
  const fields = json as Record<string, unknown>;
  const error = fields.error;
  const nested = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const candidate = nested.message ?? nested.detail ?? (typeof error === 'string' ? error : undefined) ?? fields.message ?? fields.detail;
  if (typeof candidate === 'string') return candidate;
  return typeof candidate === 'object' && candidate !== null ? messageOf(candidate) || JSON.stringify(candidate) : '';
}
