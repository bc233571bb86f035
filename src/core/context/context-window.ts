/** The size limits of the model a request goes to. */
export interface ContextLimits {
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
}

/** Settings for keeping requests inside the window. */
export interface ContextPolicy {
  /** Share of the window at which the model is asked to condense the history (0 disables). */
  readonly autoCondenseThreshold: number;
}

export const DEFAULT_CONTEXT_POLICY: ContextPolicy = { autoCondenseThreshold: 0.8 };

/**
 * The most a request may hold: the window minus room for the answer. The reserve is the model's
 * output limit, but never more than a quarter of the window.
 */
export function requestBudget(limits: ContextLimits): number {
  const reserve = Math.min(limits.maxOutputTokens, Math.floor(limits.contextWindow / 4));
  return limits.contextWindow - reserve;
}

/** What to do before the next request. */
type ContextAction = 'none' | 'condense' | 'truncate';

/** Decides from the request's size: condense at the threshold, truncate past the budget. */
export function contextAction(tokens: number, limits: ContextLimits, policy: ContextPolicy, condensedSinceLastTurn: boolean): ContextAction {
  if (tokens > requestBudget(limits)) return condensedSinceLastTurn || policy.autoCondenseThreshold <= 0 ? 'truncate' : 'condense';
  if (policy.autoCondenseThreshold > 0 && !condensedSinceLastTurn && tokens > policy.autoCondenseThreshold * limits.contextWindow) return 'condense';
  return 'none';
}
