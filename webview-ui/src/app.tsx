import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PanelView } from '../../src/shared/protocol.js';
import { ChatView } from './chat/chat-view.js';
import { Codicon } from './common/codicon.js';
import { ActionsContext, type PanelActions } from './common/actions-context.js';
import { HistoryView } from './history/history-view.js';
import { McpView } from './mcp/mcp-view.js';
import { SettingsView } from './settings/settings-view.js';
import type { RequestPayload } from '../../src/shared/request-client.js';
import { useHost } from './state/use-host.js';
import { readUiState, writeUiState } from './vscode-api.js';

/** The whole panel: routes between chat, history, MCP servers and settings and reports failed requests. */
export function App() {
  const { state, request, insertsTaken } = useHost();
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [view, setView] = useState<PanelView>(() => readUiState().view ?? 'chat');

  const actions = useMemo<PanelActions>(() => {
    const reportError = (error: unknown) => setProblem(error instanceof Error ? error.message : String(error));
    return {
      request,
      reportError,
      send: (payload: RequestPayload) => void request(payload).catch(reportError),
    };
  }, [request]);

  // The host may switch views itself (commands, "open settings" links). The first snapshot after a
  // reload defers to the view the user left, and tells the host.
  const hostView = state.panel?.view;
  const restoredView = useRef(readUiState().view);
  useEffect(() => {
    if (hostView === undefined) return;
    const restored = restoredView.current;
    restoredView.current = undefined;
    if (restored !== undefined && restored !== hostView) {
      actions.send({ type: 'showView', view: restored });
      return;
    }
    setView(hostView);
    writeUiState({ view: hostView });
    // Reacts to the host's view; `actions` only changes with the request channel.
  }, [hostView, actions]);

  const navigate = useCallback(
    (next: PanelView) => {
      setView(next);
      writeUiState({ view: next });
      actions.send({ type: 'showView', view: next });
    },
    [actions],
  );

  // A reported problem is about the settings or the task as they were; once either changes it may no
  // longer hold, so it goes rather than linger beside a working panel.
  const settingsKey = JSON.stringify(state.panel?.settings ?? null);
  const taskId = state.panel?.task?.id;
  useEffect(() => setProblem(undefined), [settingsKey, taskId]);

  // Text for the Task box (Add Selection to Smith) brings the chat forward, where the composer takes it.
  const hasInserts = state.inserts.length > 0;
  useEffect(() => {
    if (hasInserts && view !== 'chat') navigate('chat');
  }, [hasInserts, view, navigate]);

  const panel = state.panel;
  if (panel === undefined) {
    return (
      <div className="loading muted" role="status">
        <Codicon name="loading" spin /> Loading…
      </div>
    );
  }
  const openTask = (taskId: string) => {
    actions.send({ type: 'openTask', taskId });
    navigate('chat');
  };

  return (
    <ActionsContext.Provider value={actions}>
      <div className="app">
        {problem !== undefined && (
          <div className="problem-banner" role="alert">
            <Codicon name="warning" />
            <span className="problem-text">{problem}</span>
            {view !== 'settings' && (
              <button type="button" className="link-button" onClick={() => navigate('settings')}>
                Open Settings
              </button>
            )}
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setProblem(undefined)}>
              <Codicon name="close" />
            </button>
          </div>
        )}
        {view === 'settings' ? (
          <SettingsView settings={panel.settings} {...(panel.models ? { models: panel.models } : {})} {...(panel.rules ? { rules: panel.rules } : {})} pendingTask={panel.pendingTask} onBack={() => navigate('chat')} />
        ) : view === 'history' ? (
          <HistoryView history={panel.history} onOpen={openTask} onBack={() => navigate('chat')} defaultModel={panel.settings.model} />
        ) : view === 'mcp' ? (
          <McpView mcp={panel.mcp} onBack={() => navigate('chat')} />
        ) : (
          <ChatView state={state} panel={panel} onOpenTask={openTask} onOpenSettings={() => navigate('settings')} onInsertsTaken={insertsTaken} />
        )}
      </div>
    </ActionsContext.Provider>
  );
}
