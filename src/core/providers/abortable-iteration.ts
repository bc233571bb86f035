import { ProviderAbortedError } from './types.js';

/**
 * `source`'s items until `signal` aborts; then a ProviderAbortedError at once, even while the
 * source is still waiting for its next item (a stream whose producer ignores cancellation would
 * otherwise hold the task). The source is told to stop (`return`) without being waited for.
 */
export async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  if (!signal) {
    yield* { [Symbol.asyncIterator]: () => iterator };
    return;
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new ProviderAbortedError());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // Observed here so an abort after the last item is no unhandled rejection.
  aborted.catch(() => undefined);
  let finished = false;
  try {
    while (true) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
