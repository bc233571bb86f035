import { createContext, useContext } from 'react';
import type { PanelView } from '../../../src/shared/protocol.js';
import type { RequestPayload } from '../../../src/shared/request-client.js';

/** What any part of the panel may do: send a request, report a failure to the user. */
export interface PanelActions {
  readonly request: (payload: RequestPayload) => Promise<void>;
  readonly reportError: (error: unknown) => void;
  /** Sends and reports a failure, for fire-and-forget buttons. */
  readonly send: (payload: RequestPayload) => void;
  /** Shows a view of this panel (the user's navigation; the host is told, other webviews stay). */
  readonly openView: (view: PanelView) => void;
}

/** Provided once by the app; stable for its lifetime so memoised rows do not re-render. */
export const ActionsContext = createContext<PanelActions | undefined>(undefined);

/** The panel's actions; throws outside the app, which is a wiring bug. */
export function useActions(): PanelActions {
  const actions = useContext(ActionsContext);
  if (actions === undefined) throw new Error('useActions() used outside <ActionsContext.Provider>');
  return actions;
}
