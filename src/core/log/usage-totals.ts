import type { UiUsage } from '../../shared/ui-messages.js';
import type { TokenUsage } from '../providers/types.js';
import type { TaskEvent } from './events.js';

/**
 * Sums the tokens and cost of every request in the events: model responses and summary requests
 * (condensing), of one task or of several tasks' logs put one after another. The cost is left out
 * (unknown) before the first request and as soon as one request has no known cost, so it is never
 * under-reported.
 */
export function usageTotals(events: readonly TaskEvent[]): UiUsage {
  let inputTokens = 0;
  let outputTokens = 0;
  let cacheReadTokens = 0;
  let cacheWriteTokens = 0;
  let cost = 0;
  let requests = 0;
  let costKnown = true;
  for (const spent of events.flatMap(requestUsages)) {
    requests++;
    const { usage } = spent;
    inputTokens += usage.inputTokens;
    outputTokens += usage.outputTokens;
    cacheReadTokens += usage.cacheReadTokens ?? 0;
    cacheWriteTokens += usage.cacheWriteTokens ?? 0;
    // Even a response reported with zero tokens may have cost something (not every server reports usage).
    if (spent.cost !== undefined) cost += spent.cost;
    else costKnown = false;
  }
  return { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, ...(costKnown && requests > 0 ? { cost } : {}) };
}

/** The usage an event records for requests to the model: its own request, or its sub-agents' (counted in the parent's cost). */
function requestUsages(event: TaskEvent): { usage: TokenUsage; cost?: number }[] {
  switch (event.type) {
    case 'model_response':
    case 'history_condensed': // without usage: the model wrote the summary itself (the condense tool), no request
      return event.usage ? [{ usage: event.usage, ...(event.cost === undefined ? {} : { cost: event.cost }) }] : [];
    case 'condense_failed':
      // The model answered (with an unusable summary); without reported usage its cost is unknown.
      return [{ usage: event.usage ?? { inputTokens: 0, outputTokens: 0 }, ...(event.cost === undefined ? {} : { cost: event.cost }) }];
    case 'tool_result':
      // A child that made no request cost nothing; one with unknown prices makes the total unknown.
      return (event.details?.subagents ?? [])
        .filter((child) => child.requests > 0)
        .map((child) => ({
          usage: { inputTokens: child.inputTokens, outputTokens: child.outputTokens },
          ...(child.cost === undefined ? {} : { cost: child.cost }),
        }));
    default:
      return [];
  }
}
