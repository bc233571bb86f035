import type { TaskEvent } from './events.js';

/**
 * The events that still count after the user rewound the conversation: a `conversation_rewound`
 * hides every event from its `toSeq` up to itself (they stay in the log, for the record). A
 * checkpoint that describes a step before the cut stays, even when it was logged after it.
 * Returns the same array when nothing was rewound.
 */
export function visibleEvents(events: readonly TaskEvent[]): readonly TaskEvent[] {
  const cuts: Array<[from: number, to: number]> = [];
  let task: string | undefined;
  for (const event of events) {
    if (event.type !== 'conversation_rewound' || event.toSeq === undefined) continue;
    cuts.push([event.toSeq, event.seq]);
    if (event.task !== undefined) task = event.task;
  }
  if (cuts.length === 0) return events;
  const kept = events.filter((event) => {
    for (const [from, to] of cuts) {
      if (event.seq < from || event.seq >= to) continue;
      if (event.type === 'checkpoint_created' && event.afterSeq < from) continue;
      return false;
    }
    return true;
  });
  // An edited first message replaces the task's text wherever the task is read from.
  return task === undefined ? kept : kept.map((event) => (event.type === 'task_started' ? { ...event, task } : event));
}
