import type { UiMessage, UiUsage } from './ui-messages.js';

/**
 * The extension ↔ webview protocol (DESIGN §5): one discriminated union per direction.
 * Requests carry an id and get exactly one `reply`.
 */

/** Which screen of the panel is showing. */
export type PanelView = 'chat' | 'settings' | 'history' | 'mcp';

export type ProviderName = 'anthropic' | 'openai' | 'openai-compatible' | 'gemini';

/** Provider settings as the panel edits them; the key itself never travels to the webview. */
export interface ProviderSettingsView {
  readonly provider: ProviderName;
  readonly model: string;
  readonly baseUrl: string;
  /** True when a key is stored (SecretStorage) or found in the environment. */
  readonly hasApiKey: boolean;
}

/** A tool call waiting for the user's decision. */
export interface PendingApproval {
  readonly callId: string;
  readonly tool: string;
  readonly summary: string;
  readonly path?: string;
  readonly diff?: string;
  readonly command?: string;
  readonly reason?: string;
}

/** A follow-up question from the model waiting for an answer. */
export interface PendingQuestion {
  readonly question: string;
  readonly options: readonly string[];
}

export type TaskRunStatus = 'idle' | 'running' | 'awaiting_approval' | 'awaiting_answer' | 'completed' | 'failed' | 'aborted';

/** The open task as the chat shows it. */
export interface TaskView {
  readonly id: string;
  readonly messages: readonly UiMessage[];
  readonly usage: UiUsage;
  /** Cost in US dollars so far, when prices are known. */
  readonly cost?: number;
  readonly mode: 'plan' | 'act';
  readonly skill: string;
  readonly status: TaskRunStatus;
  readonly pendingApproval?: PendingApproval;
  readonly pendingQuestion?: PendingQuestion;
  /** The last failure, shown with a retry button. */
  readonly error?: string;
}

/** One stored task in the history list. */
export interface HistoryItem {
  readonly taskId: string;
  readonly task: string;
  readonly startedAt: number;
  readonly updatedAt: number;
  readonly status: string;
}

/** Everything the panel renders; sent whole on `ready` and whenever the webview was hidden. */
export interface PanelState {
  readonly view: PanelView;
  readonly task?: TaskView;
  readonly settings: ProviderSettingsView;
  readonly history: readonly HistoryItem[];
  readonly skills: readonly { readonly slug: string; readonly name: string }[];
  /** Mode to start new tasks in. */
  readonly mode: 'plan' | 'act';
  readonly skill: string;
}

/** Messages from the webview to the extension host. */
export type WebviewMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'newTask'; readonly id: string; readonly text: string }
  | { readonly type: 'sendMessage'; readonly id: string; readonly text: string }
  | { readonly type: 'approve'; readonly id: string; readonly callId: string; readonly feedback?: string }
  | { readonly type: 'reject'; readonly id: string; readonly callId: string; readonly feedback?: string }
  | { readonly type: 'answer'; readonly id: string; readonly text: string }
  | { readonly type: 'cancelTask'; readonly id: string }
  | { readonly type: 'retry'; readonly id: string }
  | { readonly type: 'setMode'; readonly id: string; readonly mode: 'plan' | 'act' }
  | { readonly type: 'setSkill'; readonly id: string; readonly skill: string }
  | { readonly type: 'showView'; readonly id: string; readonly view: PanelView }
  | {
      readonly type: 'saveSettings';
      readonly id: string;
      readonly provider: ProviderName;
      readonly model: string;
      readonly baseUrl: string;
      /** A new key to store; omitted to keep the stored one. */
      readonly apiKey?: string;
    }
  | { readonly type: 'openTask'; readonly id: string; readonly taskId: string }
  | { readonly type: 'deleteTask'; readonly id: string; readonly taskId: string }
  | { readonly type: 'exportTask'; readonly id: string; readonly taskId: string };

/** Messages from the extension host to the webview. */
export type HostMessage =
  | { readonly type: 'snapshot'; readonly state: PanelState }
  /** Replaces the open task's messages from `start` on (most updates touch only the tail). */
  | { readonly type: 'taskMessages'; readonly taskId: string; readonly start: number; readonly messages: readonly UiMessage[] }
  /** The assistant's message as it streams (transient, replaced by the logged one). */
  | { readonly type: 'streaming'; readonly taskId: string; readonly text: string; readonly reasoning: string }
  /** Live output of a running command. */
  | { readonly type: 'commandOutput'; readonly callId: string; readonly text: string }
  | { readonly type: 'reply'; readonly id: string; readonly ok: true }
  | { readonly type: 'reply'; readonly id: string; readonly ok: false; readonly error: string };

/** The request types of the webview, i.e. every message but `ready`. */
export type WebviewRequest = Exclude<WebviewMessage, { type: 'ready' }>;
