import { useState } from 'react';
import type { RequestPayload } from '../../../src/shared/request-client.js';
import { useActions } from './actions-context.js';

/**
 * Sends requests whose buttons show progress and cannot be pressed twice: `pending` names the one
 * in flight (by the key it was sent with) until its reply; a failure is reported to the user.
 */
export function usePendingRequest<K extends string>(): [pending: K | undefined, send: (key: K, payload: RequestPayload) => void] {
  const { request, reportError } = useActions();
  const [pending, setPending] = useState<K | undefined>(undefined);
  const send = (key: K, payload: RequestPayload) => {
    setPending(key);
    request(payload).then(
      () => setPending(undefined),
      (error: unknown) => {
        setPending(undefined);
        reportError(error);
      },
    );
  };
  return [pending, send];
}
