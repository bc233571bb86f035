import { useEffect, useMemo, useRef, useState } from 'react';
import type { PanelView } from '../../src/shared/protocol.js';
import { ChatView } from './chat/chat-view.js';
import { Codicon } from './common/codicon.js';
import { ActionsContext, type PanelActions } from './common/actions-context.js';
import { HistoryView } from './history/history-view.js';
import { McpView } from './mcp/mcp-view.js';
import { SettingsView } from './settings/settings-view.js';
import type { SnapshotMessage } from '../../src/shared/first-snapshot.js';
import type { RequestPayload } from '../../src/shared/request-client.js';
import { markOpeningOnce, OPENING_MARKS } from './opening-marks.js';
import { useHost } from './state/use-host.js';
import { readUiState, writeUiState, type UiState } from './vscode-api.js';

/**
 * The whole panel: routes between chat, history, MCP servers and settings and reports failed
 * requests. `firstSnapshot`: the state the page's HTML carried, drawn before the host answers `ready`.
 */
export function App({ firstSnapshot }: { firstSnapshot?: SnapshotMessage } = {}) {
  const { state, request, insertsTaken } = useHost(firstSnapshot);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [view, setView] = useState<PanelView>(() => readUiState().view ?? 'chat');

  const actions = useMemo<PanelActions>(() => {
    const reportError = (error: unknown) => setProblem(error instanceof Error ? error.message : String(error));
    const send = (payload: RequestPayload) => void request(payload).catch(reportError);
    const openView = (next: PanelView) => {
      setView(next);
      writeUiState({ view: next });
      send({ type: 'showView', view: next });
    };
    return { request, reportError, send, openView };
  }, [request]);
  const navigate = actions.openView;

  // Navigation is the user's. The host only asks for a view now and then (a title-bar command, a
  // task sent before the setup), each request named: a webview follows a request once, when its
  // name changes, so the snapshots that keep coming (a task waiting for the setup, MCP servers
  // connecting, settings saved elsewhere) never take back a view the user chose. After a reload the
  // view the user left wins over a request this webview had already followed, or none at all.
  const hostView = state.panel?.view;
  const viewRequest = state.panel?.viewRequest;
  const restored = useRef<UiState | undefined>(readUiState());
  useEffect(() => {
    if (hostView === undefined) return;
    const left = restored.current;
    restored.current = undefined;
    if (left?.view !== undefined && (viewRequest === undefined || viewRequest === left.viewRequest)) {
      actions.send({ type: 'showView', view: left.view });
      return;
    }
    setView(hostView);
    writeUiState({ view: hostView, ...(viewRequest !== undefined ? { viewRequest } : {}) });
    // Runs for a new request only (`actions` changes only with the request channel).
  }, [hostView, viewRequest, actions]);

  // A reported problem is about the settings or the task as they were; once either changes it may no
  // longer hold, so it goes rather than linger beside a working panel.
  const settingsKey = JSON.stringify(state.panel?.settings ?? null);
  const taskId = state.panel?.task?.id;
  useEffect(() => setProblem(undefined), [settingsKey, taskId]);

  // Text for the Task box (Add Selection to Smith, a waiting task given back) brings the chat
  // forward, where the composer takes it: both are the user's own actions.
  const hasInserts = state.inserts.length > 0;
  useEffect(() => {
    if (hasInserts && view !== 'chat') navigate('chat');
  }, [hasInserts, view, navigate]);

  // The waiting task started while this webview shows the setup it waited for (the user saved it):
  // the chat, where it runs, replaces the setup. Any other view the user is in stays.
  const pendingTask = state.panel?.pendingTask;
  const firstMessage = state.panel?.task?.messages[0];
  const startedText = firstMessage?.kind === 'task' ? firstMessage.text : undefined;
  const awaited = useRef<string | undefined>(undefined);
  // Save's own confirmation leaves with the setup, so the chat says it instead, for the task it started.
  const [savedNotice, setSavedNotice] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (pendingTask !== undefined) {
      awaited.current = pendingTask;
      return;
    }
    if (awaited.current === undefined || startedText !== awaited.current) return;
    awaited.current = undefined;
    if (view !== 'settings') return;
    setSavedNotice(taskId);
    navigate('chat');
  }, [pendingTask, startedText, view, navigate, taskId]);

  const panel = state.panel;
  const drawn = panel !== undefined;
  useEffect(() => {
    if (!drawn) return;
    markOpeningOnce(OPENING_MARKS.chatDrawn);
    // A task queued from the next animation frame runs once that frame has been painted.
    requestAnimationFrame(() => setTimeout(() => markOpeningOnce(OPENING_MARKS.chatPainted), 0));
  }, [drawn]);
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
          <SettingsView
            settings={panel.settings}
            {...(panel.models ? { models: panel.models } : {})}
            {...(panel.rules ? { rules: panel.rules } : {})}
            {...(panel.agentSkills ? { agentSkills: panel.agentSkills } : {})}
            pendingTask={panel.pendingTask}
            onBack={() => navigate('chat')}
          />
        ) : view === 'history' ? (
          <HistoryView
            history={panel.history}
            loading={panel.historyLoading === true}
            onOpen={openTask}
            onBack={() => navigate('chat')}
            onStarted={() => navigate('chat')}
            {...(panel.baseBranches ? { baseBranches: panel.baseBranches } : {})}
            defaultModel={panel.settings.model}
          />
        ) : view === 'mcp' ? (
          <McpView mcp={panel.mcp} onBack={() => navigate('chat')} />
        ) : (
          <>
            {savedNotice !== undefined && savedNotice === taskId && (
              <div className="saved-notice muted small" role="status">
                <Codicon name="check" /> Saved. Your task started.
              </div>
            )}
            <ChatView state={state} panel={panel} onOpenTask={openTask} onOpenSettings={() => navigate('settings')} onInsertsTaken={insertsTaken} />
          </>
        )}
      </div>
    </ActionsContext.Provider>
  );
}
