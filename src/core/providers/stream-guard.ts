import { idleTimeoutError, notAStreamError } from './provider-errors.js';
import type { ProviderErrorContext } from './provider-errors.js';
import type { ProviderError } from './types.js';

/** How long a request may receive no byte (before its headers or between chunks) when the settings say nothing. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** The fetch signature the three SDKs accept. */
type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

// Enough of a body to tell an event stream from an HTML page or a JSON document.
const PEEK_BYTES = 512;
// The fields an SSE stream is made of (a line starting with ':' is a comment, e.g. a keep-alive).
const SSE_LINE = /^(?:data|event|id|retry)\s*:|^:/;

/**
 * Watches the HTTP exchange of one streaming model request, below the SDK: the attempt is ended
 * when no byte arrives for `idleMs` while a response is awaited (before its headers, or while the
 * SDK waits for the next chunk), and a successful response that is not an event stream (an HTML
 * page from a proxy, a wrong base URL) is refused. Either way `failure` says why, worded for the
 * user, because an SDK reports the abort it sees only as a generic connection error.
 */
export class StreamGuard {
  /** Why the guard ended the request; undefined while it has not. */
  failure: ProviderError | undefined;

  constructor(
    /** 0 (or less) turns the idle timeout off; the stream check stays. */
    private readonly idleMs: number,
    private readonly context: ProviderErrorContext,
  ) {}

  /** `inner` with this guard applied: give it to the SDK for this one request. */
  wrap(inner: FetchFunction): FetchFunction {
    return (input, init) => this.guardedFetch(inner, input, init);
  }

  private async guardedFetch(inner: FetchFunction, input: string | URL | Request, init: RequestInit | undefined): Promise<Response> {
    // A controller of our own, so the timer can end the exchange without touching the caller's signal.
    const controller = new AbortController();
    const callerSignal = init?.signal ?? undefined;
    const forwardAbort = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) forwardAbort();
    else callerSignal?.addEventListener('abort', forwardAbort, { once: true });
    const timer = new IdleTimer(this.idleMs, (phase) => {
      this.failure ??= idleTimeoutError(this.context, this.idleMs, phase);
      controller.abort(this.failure);
    });
    const release = () => {
      timer.stop();
      callerSignal?.removeEventListener('abort', forwardAbort);
    };

    let response: Response;
    timer.start('headers');
    try {
      response = await inner(input, { ...init, signal: controller.signal });
    } catch (err) {
      release();
      throw this.failure ?? err;
    } finally {
      timer.stop();
    }
    if (!response.body) {
      release();
      return response;
    }

    const reader = response.body.getReader();
    // Only a pending read is timed: a consumer busy with the previous chunk is not the server's silence.
    const read = async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
      timer.start('body');
      try {
        return await reader.read();
      } catch (err) {
        throw this.failure ?? err;
      } finally {
        timer.stop();
      }
    };

    const peeked: Uint8Array[] = [];
    if (response.ok && !isEventStream(response.headers.get('content-type'))) {
      let ended = false;
      try {
        ended = await peek(read, peeked);
      } catch (err) {
        release();
        throw err;
      }
      if (!looksLikeEventStream(peeked)) {
        release();
        void reader.cancel().catch(() => undefined);
        this.failure ??= notAStreamError(this.context, {
          url: requestUrl(input),
          status: response.status,
          contentType: response.headers.get('content-type') ?? '',
          start: ended && peeked.length === 0 ? '' : decode(peeked),
        });
        throw this.failure;
      }
    }

    const body = new ReadableStream<Uint8Array>({
      pull: async (stream) => {
        const next = peeked.shift();
        if (next) return stream.enqueue(next);
        try {
          const { done, value } = await read();
          if (done) {
            release();
            stream.close();
          } else {
            stream.enqueue(value);
          }
        } catch (err) {
          release();
          stream.error(err);
        }
      },
      cancel: async (reason) => {
        release();
        await reader.cancel(reason);
      },
    });
    const guarded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // The SDKs name the URL in their errors and logs.
    Object.defineProperty(guarded, 'url', { value: response.url });
    return guarded;
  }
}

/** Where the idle time ran out: waiting for the response to start, or for the next bytes of its body. */
type IdlePhase = 'headers' | 'body';

class IdleTimer {
  private handle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    private readonly onIdle: (phase: IdlePhase) => void,
  ) {}

  start(phase: IdlePhase): void {
    this.stop();
    if (this.ms > 0) this.handle = setTimeout(() => this.onIdle(phase), this.ms);
  }

  stop(): void {
    if (this.handle !== undefined) clearTimeout(this.handle);
    this.handle = undefined;
  }
}

// AWS's binary event stream is Bedrock's; its SDK turns it into server-sent events.
function isEventStream(contentType: string | null): boolean {
  return contentType !== null && /^\s*(?:text\/event-stream|application\/vnd\.amazon\.eventstream)\b/i.test(contentType);
}

/** Reads until a first line is complete or PEEK_BYTES arrived; true when the body ended. */
async function peek(read: () => Promise<ReadableStreamReadResult<Uint8Array>>, into: Uint8Array[]): Promise<boolean> {
  let size = 0;
  for (;;) {
    const { done, value } = await read();
    if (done) return true;
    into.push(value);
    size += value.byteLength;
    const text = decode(into).replace(/^\s+/, '');
    if (size >= PEEK_BYTES || /[\r\n]/.test(text)) return false;
  }
}

// Some servers label their stream text/plain or not at all; what they send decides.
function looksLikeEventStream(chunks: readonly Uint8Array[]): boolean {
  const firstLine =
    decode(chunks)
      .replace(/^\s+/, '')
      .split(/\r\n|\r|\n/, 1)[0] ?? '';
  return firstLine !== '' && SSE_LINE.test(firstLine);
}

function decode(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join('') + decoder.decode();
}

// Without the query string: it may hold a key (Gemini accepts ?key=).
function requestUrl(input: string | URL | Request): string {
  const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    const url = new URL(raw);
    return `${url.origin}${url.pathname}`;
  } catch {
    return raw.split('?')[0] ?? raw;
  }
}
