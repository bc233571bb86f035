import type { UiUsage } from '../../shared/ui-messages.js';
import type { TokenUsage } from '../providers/types.js';
import type { TaskEvent } from './events.js';

/**
 * Sums the tokens and cost of every request in the events: model responses and summary requests
 * (condensing), of one task or of several tasks' logs put one after another. The cost is left out
 * (unknown) as soon as one request that used tokens has no known cost, so it is never under-reported.
 */
export function usageTotals(events: readonly TaskEvent[]): UiUsage {
  let inputTokens = 0;
  let outputTokens = 0;
  let cacheReadTokens = 0;
  let cacheWriteTokens = 0;
  let cost = 0;
  let costKnown = true;
  for (const event of events) {
    const spent = requestUsage(event);
    if (!spent) continue;
    const { usage } = spent;
    inputTokens += usage.inputTokens;
    outputTokens += usage.outputTokens;
    cacheReadTokens += usage.cacheReadTokens ?? 0;
    cacheWriteTokens += usage.cacheWriteTokens ?? 0;
    if (spent.cost !== undefined) cost += spent.cost;
    else if (usage.inputTokens + usage.outputTokens > 0) costKnown = false;
  }
  return { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, ...(costKnown ? { cost } : {}) };
}

/** The usage an event records for a request to the model, if it records one. */
function requestUsage(event: TaskEvent): { usage: TokenUsage; cost?: number } | undefined {
  switch (event.type) {
    case 'model_response':
    case 'history_condensed':
    case 'condense_failed':
      return event.usage ? { usage: event.usage, ...(event.cost === undefined ? {} : { cost: event.cost }) } : undefined;
    default:
      return undefined;
  }
}
