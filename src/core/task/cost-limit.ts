import { costOf } from '../providers/model-cost.js';
import { CostBudget } from '../log/cost-budget.js';
import type { TaskEvent } from '../log/events.js';
import type { TaskOptions } from './task-types.js';
import { usageTotals } from '../log/usage-totals.js';

/** The budget of a task that shares none yet: its cost limit, less what its log already cost (its past sub-agents included); none without a limit. */
export function costBudgetFor(maxCost: number | undefined, events: readonly TaskEvent[]): CostBudget | undefined {
  return maxCost === undefined ? undefined : new CostBudget(maxCost, usageTotals(events).cost ?? 0);
}

/**
 * The models of a task whose prices are unknown (`provider/model`), so a cost limit cannot apply to
 * what they spend: the main model and each mode's model. Empty when every price is known.
 */
export function unpricedModels(options: Pick<TaskOptions, 'provider' | 'providerForMode' | 'modelInfo'>): string[] {
  const providers = [options.provider, ...Object.values(options.providerForMode ?? {})];
  const unpriced = providers.filter((provider) => {
    const info = options.modelInfo?.(provider);
    return !info || costOf({ inputTokens: 1, outputTokens: 1 }, info) === undefined;
  });
  return [...new Set(unpriced.map((provider) => `${provider.id}/${provider.modelId}`))];
}

/** What an event cost that is charged to the budget when logged: the task's own requests (sub-agents charge theirs themselves). */
export function chargedCost(event: TaskEvent): number | undefined {
  switch (event.type) {
    case 'model_response':
    case 'history_condensed':
    case 'condense_failed':
      return event.cost;
    default:
      return undefined;
  }
}
