import { PANEL_VIEWS, type PanelView, type WebviewMessage } from '../../src/shared/protocol.js';

/** The object VS Code injects into every webview; it may be acquired only once per page. */
interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}

/**
 * UI and navigation state the webview keeps across reloads. Task data never goes here: the host
 * sends a full snapshot on `ready` (GitLens rule: persist UI state only).
 */
export interface UiState {
  readonly view?: PanelView;
  /** The host's view request this webview last followed (PanelState.viewRequest). */
  readonly viewRequest?: string;
  readonly draft?: string;
  /** The page whose first snapshot (in its HTML) this webview drew: the same HTML loaded again holds an old one. */
  readonly firstSnapshotPage?: string;
}

let api: VsCodeApi | undefined;

function vscode(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}

/** Posts one message to the extension host. */
export function postToHost(message: WebviewMessage): void {
  vscode().postMessage(message);
}

const views: readonly PanelView[] = PANEL_VIEWS;

/** Reads the persisted UI state, dropping anything an older version may have stored. */
export function readUiState(): UiState {
  const raw = vscode().getState();
  if (typeof raw !== 'object' || raw === null) return {};
  const record = raw as Record<string, unknown>;
  return {
    view: views.includes(record.view as PanelView) ? (record.view as PanelView) : undefined,
    viewRequest: typeof record.viewRequest === 'string' ? record.viewRequest : undefined,
    draft: typeof record.draft === 'string' ? record.draft : undefined,
    firstSnapshotPage: typeof record.firstSnapshotPage === 'string' ? record.firstSnapshotPage : undefined,
  };
}

/** Merges a change into the persisted UI state. */
export function writeUiState(change: Partial<UiState>): void {
  vscode().setState({ ...readUiState(), ...change });
}
