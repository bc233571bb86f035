import type { TaskEvent } from '../log/events.js';

/** A range of the log to drop from the context window: [fromSeq, toSeq). */
interface TruncationRange {
  readonly fromSeq: number;
  readonly toSeq: number;
}

/**
 * Chooses which older turns to drop. A turn starts at a model response and runs until the next
 * one, so a tool call always leaves together with its result; the task's first message (before
 * the first response) and the most recent turns are kept. Drops `share` of the droppable turns,
 * at least one. Returns undefined when there is nothing left to drop.
 */
export function planTruncation(events: readonly TaskEvent[], share: number): TruncationRange | undefined {
  const hidden = hiddenSeqs(events);
  const lastCondense = events.findLastIndex((e) => e.type === 'history_condensed');
  const starts = events.filter((e, i) => e.type === 'model_response' && i > lastCondense && !hidden.has(e.seq)).map((e) => e.seq);
  // Keep the last two turns: the model must see what it just did.
  const droppable = starts.length - 2;
  if (droppable < 1) return undefined;
  const count = Math.max(1, Math.min(droppable, Math.floor(droppable * share)));
  return { fromSeq: starts[0]!, toSeq: starts[count]! };
}

/** The sequence numbers already removed from the context by earlier truncations. */
export function hiddenSeqs(events: readonly TaskEvent[]): Set<number> {
  const hidden = new Set<number>();
  for (const event of events) {
    if (event.type !== 'history_truncated') continue;
    for (let seq = event.fromSeq; seq < event.toSeq; seq++) hidden.add(seq);
  }
  return hidden;
}
