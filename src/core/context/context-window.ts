/** The size limits of the model a request goes to. */
export interface ContextLimits {
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
}

/** Settings for keeping requests inside the window. */
export interface ContextPolicy {
  /** Share of the window at which the model is asked to condense the history (0 disables). */
  readonly autoCondenseThreshold: number;
  /**
   * A request size in tokens at which the history is condensed, whatever the window: on a 1M-token
   * model a share triggers far too late to stay cheap. With a share too, the lower of the two wins.
   */
  readonly autoCondenseTokens?: number;
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

/** The request size at which the history is condensed: the lower of the share of the window and the token count; undefined when both are off. */
export function condenseTrigger(limits: ContextLimits, policy: ContextPolicy): number | undefined {
  const triggers = [
    ...(policy.autoCondenseThreshold > 0 ? [policy.autoCondenseThreshold * limits.contextWindow] : []),
    ...(policy.autoCondenseTokens !== undefined && policy.autoCondenseTokens > 0 ? [policy.autoCondenseTokens] : []),
  ];
  return triggers.length > 0 ? Math.min(...triggers) : undefined;
}

/** Decides from the request's size: condense at the trigger, truncate past the budget. */
export function contextAction(tokens: number, limits: ContextLimits, policy: ContextPolicy, condensedSinceLastTurn: boolean): ContextAction {
  const trigger = condenseTrigger(limits, policy);
  if (tokens > requestBudget(limits)) return condensedSinceLastTurn || trigger === undefined ? 'truncate' : 'condense';
  if (trigger !== undefined && !condensedSinceLastTurn && tokens > trigger) return 'condense';
  return 'none';
}
