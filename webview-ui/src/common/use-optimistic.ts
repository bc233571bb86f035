import { useState } from 'react';
import { useActions } from './actions-context.js';

/**
 * Shows the chosen value at once; the host's state confirms it (it arrives before the request's
 * reply), or the request's error reverts it and is reported.
 */
export function useOptimistic<T>(actual: T): [T, (value: T, send: () => Promise<void>) => void] {
  const [pending, setPending] = useState<{ value: T } | undefined>(undefined);
  const { reportError } = useActions();
  const choose = (value: T, send: () => Promise<void>) => {
    setPending({ value });
    send().then(
      () => setPending(undefined),
      (error: unknown) => {
        setPending(undefined);
        reportError(error);
      },
    );
  };
  return [pending === undefined ? actual : pending.value, choose];
}
