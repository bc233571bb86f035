import type { LiveTask, McpPanelState, PanelState, TaskProgress } from '../shared/protocol.js';
import type { UiMessage } from '../shared/ui-messages.js';

/** What changed in the panel's state; each webview's messenger decides what to send. */
export type PanelChange =
  /** Something only a snapshot carries (status, pending approval, view, settings, history). */
  | { readonly kind: 'state' }
  /** The open task's messages from `start` on were replaced. */
  | { readonly kind: 'messages'; readonly taskId: string; readonly start: number; readonly messages: readonly UiMessage[] }
  /** The open task's usage, todo list or context figures changed (a logged event), without the rest of the state. */
  | { readonly kind: 'progress'; readonly taskId: string; readonly progress: TaskProgress }
  /** The streaming assistant message grew or was cleared; read it with `streaming()`. */
  | { readonly kind: 'streaming' }
  /** A chunk of the output of a running command of the shown task. */
  | { readonly kind: 'commandOutput'; readonly taskId: string; readonly callId: string; readonly text: string }
  /** A held task's status or cost changed (the shown one or another); read the list with `liveTasks()`. */
  | { readonly kind: 'tasks' }
  /** The MCP servers or their config changed; `state` is the MCP part of the panel state now. */
  | { readonly kind: 'mcp'; readonly state: McpPanelState }
  /** Text waits for a Task box; the first ready, visible webview takes it with `takeInserts()`. */
  | { readonly kind: 'insertText' };

/** Text of the streaming message, readable from an offset (what a reader has not sent yet). */
export interface StreamedText {
  readonly length: number;
  textFrom(offset: number): string;
}

/** The streaming assistant message of the open task. */
export interface StreamingView {
  readonly taskId: string;
  /**
   * Names the message while its text only grows; a new key means it started over. Without one,
   * the message is always sent whole.
   */
  readonly key?: string;
  readonly text: StreamedText;
  readonly reasoning: StreamedText;
}

/** What a messenger reads: the whole state on demand, and changes as they happen. */
export interface PanelSource {
  snapshot(): PanelState;
  /** The tasks the panel holds, as the task list shows them (absent: a source without tasks). */
  liveTasks?(): LiveTask[];
  /** The message being streamed now, if any. */
  streaming(): StreamingView | undefined;
  /** Text for the Task box not yet taken, removed from the source as it is returned. */
  takeInserts(): readonly string[];
  onDidChange(listener: (change: PanelChange) => void): { dispose(): void };
}
