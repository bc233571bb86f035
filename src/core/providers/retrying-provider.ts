import { ProviderAbortedError, ProviderError } from './types.js';
import type { ApiProvider, ApiRequest, ApiStream } from './types.js';

/** What the UI is told before each retry, e.g. "retrying in 4 s (attempt 2/3)". */
export interface RetryInfo {
  /** The retry about to be made, 1-based: 1 is the first retry after the initial request failed. */
  readonly attempt: number;
  readonly maxRetries: number;
  readonly delayMs: number;
  readonly error: ProviderError;
}

/** How withRetries retries. */
export interface RetryOptions {
  /** Retries after the first attempt; default 3. */
  readonly maxRetries?: number;
  /** First backoff delay, doubled per retry; default 1000. */
  readonly baseDelayMs?: number;
  /** Cap on the computed backoff; default 30 000. A server's own Retry-After is honoured above it, up to 10 minutes. */
  readonly maxDelayMs?: number;
  /** Called before each wait. */
  readonly onRetry?: (info: RetryInfo) => void;
  /** Waits `ms`, rejecting with ProviderAbortedError as soon as `signal` aborts; injectable for tests. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of jitter in [0, 1); injectable for tests. */
  readonly random?: () => number;
  /**
   * Retry a stream that broke after yielding chunks too: a `restart` chunk first tells the consumer
   * to drop what it received, then the request is made again from the start. These retries have
   * their own count (up to `maxRetries`), and each new attempt may again be retried before its
   * first chunk. Default false: such an error reaches the caller after the chunks.
   */
  readonly restartMidStream?: boolean;
}

const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_BASE_DELAY_MS = 1_000;
const DEFAULT_MAX_DELAY_MS = 30_000;
// A server asking for a longer wait means a spent quota, not a blip: tell the user instead of hanging.
const MAX_SERVER_REQUESTED_WAIT_MS = 10 * 60_000;

/**
 * Wraps a provider so that retryable failures (429, 5xx, timeouts, lost connections) are retried
 * with exponential backoff and jitter, honouring the server's Retry-After. This is the engine's one
 * retry loop. A stream is retried while it has yielded nothing; once chunks went out, it is
 * retried only with `restartMidStream` (the engine's turns use it, so a half-received response is
 * never acted on), otherwise the error is rethrown. Never retries aborts or errors such as 400/401/403.
 */
export function withRetries(provider: ApiProvider, options: RetryOptions = {}): ApiProvider {
  return new RetryingProvider(provider, options);
}

/** The nominal backoff before retry number `attempt` (1-based), with equal jitter: half fixed, half random. */
export function backoffDelayMs(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number = Math.random): number {
  const nominal = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  return Math.round(nominal / 2 + random() * (nominal / 2));
}

/** Resolves after `ms`, or rejects with ProviderAbortedError as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ProviderAbortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ProviderAbortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

class RetryingProvider implements ApiProvider {
  readonly id: ApiProvider['id'];
  readonly modelId: string;
  readonly toolProtocol: ApiProvider['toolProtocol'];
  private readonly maxRetries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;

  constructor(
    private readonly inner: ApiProvider,
    private readonly options: RetryOptions,
  ) {
    this.id = inner.id;
    this.modelId = inner.modelId;
    this.toolProtocol = inner.toolProtocol;
    this.maxRetries = Math.max(0, options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.baseDelayMs = Math.max(0, options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS);
    this.maxDelayMs = Math.max(this.baseDelayMs, options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
    this.sleep = options.sleep ?? abortableSleep;
    this.random = options.random ?? Math.random;
  }

  async *createMessage(request: ApiRequest): ApiStream {
    // Retries of the current attempt before its first chunk; restarts after a stream broke mid-way.
    let retry = 0;
    let restarts = 0;
    for (;;) {
      let yielded = false;
      try {
        for await (const chunk of this.inner.createMessage(request)) {
          yielded = true;
          yield chunk;
        }
        return;
      } catch (err) {
        const restart = yielded && this.options.restartMidStream === true;
        const attempt = restart ? restarts : retry;
        const delayMs = this.retryDelay(err, attempt, yielded && !restart, request.signal);
        if (delayMs === undefined) throw err;
        const error = err as ProviderError;
        if (restart) {
          restarts++;
          // The new attempt starts afresh, with its own retries before its first chunk.
          retry = 0;
          yield { type: 'restart', reason: error.message };
        } else {
          retry++;
        }
        this.options.onRetry?.({ attempt: attempt + 1, maxRetries: this.maxRetries, delayMs, error });
        await this.sleep(delayMs, request.signal);
        // A sleep that ignores the signal must still not start another request after an abort.
        if (request.signal?.aborted) throw new ProviderAbortedError();
      }
    }
  }

  /** How long to wait before retrying, or undefined when `err` must reach the caller. */
  private retryDelay(err: unknown, retry: number, yielded: boolean, signal: AbortSignal | undefined): number | undefined {
    if (!(err instanceof ProviderError) || err instanceof ProviderAbortedError || !err.retryable) return undefined;
    if (yielded || retry >= this.maxRetries || signal?.aborted) return undefined;
    if (err.retryAfterMs !== undefined) {
      return err.retryAfterMs <= MAX_SERVER_REQUESTED_WAIT_MS ? Math.max(0, err.retryAfterMs) : undefined;
    }
    return backoffDelayMs(retry + 1, this.baseDelayMs, this.maxDelayMs, this.random);
  }
}
