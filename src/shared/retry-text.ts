/** The facts of a retry that every renderer shows. */
interface RetryFacts {
  readonly attempt: number;
  readonly maxRetries: number;
  readonly delayMs: number;
  readonly reason: string;
}

/** The wait before a retry in whole seconds, at least 1 ("retrying in 0 s" reads as a bug). */
function retrySeconds(delayMs: number): number {
  return Math.max(1, Math.round(delayMs / 1000));
}

/**
 * One line for a retry: "<reason> Retrying in 4 s (attempt 2 of 3)." `secondsLeft` counts the
 * wait down while it runs (0: "Retrying now"); by default the whole wait is named.
 */
export function retryText(retry: RetryFacts, secondsLeft = retrySeconds(retry.delayMs)): string {
  const reason = retry.reason.trim();
  const sentence = reason && !/[.!?]$/.test(reason) ? `${reason}.` : reason;
  const when = secondsLeft > 0 ? `Retrying in ${secondsLeft} s` : 'Retrying now';
  return `${sentence ? `${sentence} ` : ''}${when} (attempt ${retry.attempt} of ${retry.maxRetries}).`;
}
