// The events of the context window: what a request holds, and the condensing, truncation and shortening that keep it small.
import type { TokenUsage } from '../providers/types.js';
import type { EventBase } from './event-base.js';

/** Older history is replaced by this summary in the context window; the log keeps everything. */
export interface HistoryCondensed extends EventBase {
  readonly type: 'history_condensed';
  readonly summary: string;
  /** The summary request's tokens (absent when the model wrote the summary itself with the condense tool). */
  readonly usage?: TokenUsage;
  /** US dollars for the summary request, when the model's prices are known. */
  readonly cost?: number;
  /** The model that wrote it (`provider/model`), when Smith asked for the summary. */
  readonly model?: string;
}

/** A summary request failed; the tokens it used still count. */
export interface CondenseFailed extends EventBase {
  readonly type: 'condense_failed';
  readonly error: string;
  readonly usage?: TokenUsage;
  readonly cost?: number;
}

/** Events [fromSeq, toSeq) no longer go to the model, to fit its context window. */
export interface HistoryTruncated extends EventBase {
  readonly type: 'history_truncated';
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly reason: string;
}

/**
 * Large tool results up to `throughSeq` reach the model shortened to about `maxTokens` each (their
 * beginning and end), to keep a long task's context small before condensing the whole history.
 */
export interface ToolResultsShortened extends EventBase {
  readonly type: 'tool_results_shortened';
  readonly throughSeq: number;
  readonly maxTokens: number;
  /** How many results it shortened, and about how many tokens that saves per request. */
  readonly results: number;
  readonly savedTokens: number;
}

/**
 * What the request about to be made holds, estimated (o200k tokens) just before it is sent: the
 * context bar shows it against the model's window. `results` is the part of `conversation` that
 * is tool results.
 */
export interface ContextMeasured extends EventBase {
  readonly type: 'context_measured';
  readonly tokens: number;
  /** The model's context window, when known. */
  readonly window?: number;
  readonly system: number;
  /** Native tool definitions (with the XML protocol the tools are described in the system prompt). */
  readonly tools: number;
  readonly conversation: number;
  readonly results: number;
  /** The share of the window at which the history is condensed. */
  readonly condenseAt?: number;
}
