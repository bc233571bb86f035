import type { TaskEvent } from '../task/events.js';

/** Every snapshot a task's log names: its checkpoints and the states its restores replaced. */
export function snapshotsOfTask(events: readonly TaskEvent[]): string[] {
  const roots: string[] = [];
  for (const event of events) {
    if (event.type === 'checkpoint_created') roots.push(event.root);
    else if (event.type === 'conversation_rewound' && event.beforeRoot) roots.push(event.beforeRoot);
  }
  return roots;
}
