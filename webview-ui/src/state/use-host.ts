import { useCallback, useEffect, useMemo, useReducer } from 'react';
import { markOpeningOnce, OPENING_MARKS } from '../opening-marks.js';
import { postToHost } from '../vscode-api.js';
import { receiveHostMessage } from './host-messages.js';
import { initialWebviewState, panelReducer, type WebviewState } from './panel-reducer.js';
import type { SnapshotMessage } from '../../../src/shared/first-snapshot.js';
import { createRequestClient, type RequestPayload } from '../../../src/shared/request-client.js';

/** The host's state plus the typed request function, for the whole app. */
interface HostConnection {
  readonly state: WebviewState;
  readonly request: (payload: RequestPayload) => Promise<void>;
  /** The composer has put the first `count` of `state.inserts` into the Task box. */
  readonly insertsTaken: (count: number) => void;
}

/** Listens to the host, feeds the reducer and says `ready` once mounted; starts from `firstSnapshot` when the page carried one. */
export function useHost(firstSnapshot?: SnapshotMessage): HostConnection {
  const [state, dispatch] = useReducer(panelReducer, firstSnapshot, (first) => (first ? panelReducer(initialWebviewState, first) : initialWebviewState));
  const client = useMemo(() => createRequestClient(postToHost), []);

  useEffect(() => {
    const onMessage = (event: MessageEvent<unknown>) => {
      const message = receiveHostMessage(event.data, client, (problem) => console.error(problem));
      if (message?.type === 'snapshot') markOpeningOnce(OPENING_MARKS.firstSnapshot);
      if (message) dispatch(message);
    };
    window.addEventListener('message', onMessage);
    postToHost({ type: 'ready' });
    return () => {
      window.removeEventListener('message', onMessage);
      client.dispose();
    };
  }, [client]);

  const insertsTaken = useCallback((count: number) => dispatch({ type: 'insertsTaken', count }), []);
  return useMemo(() => ({ state, request: client.request, insertsTaken }), [state, client, insertsTaken]);
}
