import { useCallback, useEffect, useMemo, useReducer } from 'react';
import type { HostMessage } from '../../../src/shared/protocol.js';
import { postToHost } from '../vscode-api.js';
import { initialWebviewState, panelReducer, type WebviewState } from './panel-reducer.js';
import { createRequestClient, type RequestPayload } from './request-client.js';

/** The host's state plus the typed request function, for the whole app. */
export interface HostConnection {
  readonly state: WebviewState;
  readonly request: (payload: RequestPayload) => Promise<void>;
  /** The composer has put the first `count` of `state.inserts` into the Task box. */
  readonly insertsTaken: (count: number) => void;
}

const HOST_MESSAGE_TYPES = new Set<string>(['snapshot', 'taskMessages', 'streaming', 'commandOutput', 'mcpState', 'insertText', 'reply']);

function isHostMessage(data: unknown): data is HostMessage {
  return typeof data === 'object' && data !== null && HOST_MESSAGE_TYPES.has((data as { type?: unknown }).type as string);
}

/** Listens to the host, feeds the reducer and says `ready` once mounted. */
export function useHost(): HostConnection {
  const [state, dispatch] = useReducer(panelReducer, initialWebviewState);
  const client = useMemo(() => createRequestClient(postToHost), []);

  useEffect(() => {
    const onMessage = (event: MessageEvent<unknown>) => {
      if (!isHostMessage(event.data)) return;
      if (!client.handleMessage(event.data)) dispatch(event.data);
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
