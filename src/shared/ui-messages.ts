import type { ToolFacts } from './tool-details.js';

/** The chat's message list as the panel and the CLI render it; derived from the task log. */
export type UiMessage =
  | { readonly kind: 'task'; readonly id: string; readonly text: string; readonly attached?: readonly UiAttachment[]; readonly ts: number }
  | { readonly kind: 'user'; readonly id: string; readonly text: string; readonly attached?: readonly UiAttachment[]; readonly ts: number }
  | { readonly kind: 'assistant'; readonly id: string; readonly text: string; readonly reasoning: string; readonly ts: number }
  | UiToolMessage
  | { readonly kind: 'notice'; readonly id: string; readonly text: string; readonly ts: number }
  | { readonly kind: 'error'; readonly id: string; readonly text: string; readonly ts: number }
  | UiRetryMessage
  | { readonly kind: 'completion'; readonly id: string; readonly result: string; readonly command?: string; readonly ts: number };

/** What an @-mention attached to a message, shown as a chip. */
export interface UiAttachment {
  readonly kind: string;
  readonly ref: string;
  readonly truncated: boolean;
}

/** A failed model request about to be made again ("retrying in 4 s, attempt 2 of 3"). */
export interface UiRetryMessage {
  readonly kind: 'retry';
  readonly id: string;
  /** 1 for the first retry. */
  readonly attempt: number;
  readonly maxRetries: number;
  readonly delayMs: number;
  readonly reason: string;
  readonly ts: number;
}

/** Where a tool call stands. */
export type ToolStatus = 'running' | 'awaiting_approval' | 'rejected' | 'done' | 'failed' | 'interrupted';

/** One card per tool call. */
export interface UiToolMessage {
  readonly kind: 'tool';
  readonly id: string;
  readonly callId: string;
  readonly tool: string;
  readonly params: Readonly<Record<string, string>>;
  readonly status: ToolStatus;
  readonly output?: string;
  readonly error?: string;
  readonly feedback?: string;
  /** Facts of the result the card renders (exit code, lines changed, counts); absent for results logged before they were recorded. */
  readonly details?: ToolFacts;
  readonly ts: number;
}

/** Token totals of a task. */
export interface UiUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** US dollars, when the models' prices are known. */
  readonly cost?: number;
}
