import { ProviderAbortedError, type ProviderError } from './types.js';

/** How long a stream may give nothing before it is abandoned, and the error that says so. */
interface IdleLimit {
  /** 0 (or less) turns the limit off. */
  readonly ms: number;
  /** `first`: nothing came at all yet. */
  error(first: boolean): ProviderError;
}

/**
 * `source`'s items until `signal` aborts; then a ProviderAbortedError at once, even while the
 * source is still waiting for its next item (a stream whose producer ignores cancellation would
 * otherwise hold the task). With `idle`, a wait for the next item longer than its limit ends the
 * stream with its error. Either way the source is told to stop (`return`) without being waited for.
 */
export async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal | undefined, idle?: IdleLimit): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new ProviderAbortedError());
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  // Observed here so an abort after the last item is no unhandled rejection.
  aborted.catch(() => undefined);
  let finished = false;
  let first = true;
  try {
    while (true) {
      let timer: NodeJS.Timeout | undefined;
      const quiet =
        idle && idle.ms > 0
          ? new Promise<never>((_, reject) => {
              const firstItem = first;
              timer = setTimeout(() => reject(idle.error(firstItem)), idle.ms);
            })
          : undefined;
      const next = await Promise.race([iterator.next(), aborted, ...(quiet ? [quiet] : [])]).finally(() => clearTimeout(timer));
      if (next.done) {
        finished = true;
        return;
      }
      first = false;
      yield next.value;
    }
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}

/**
 * `promise`'s value, or a ProviderAbortedError as soon as `signal` aborts (a request that waits on
 * something the caller cannot cancel, such as a consent dialog, must not hold a stopped task).
 */
export function unlessAborted<T>(promise: PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return Promise.resolve(promise);
  if (signal.aborted) return Promise.reject(new ProviderAbortedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ProviderAbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
