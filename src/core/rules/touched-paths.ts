import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { TaskEvent } from '../log/events.js';

/**
 * The workspace paths a task's tool calls named (files read, written, listed or searched),
 * workspace-relative with '/', in first-touched order. Conditional and nested rules follow them.
 */
export function touchedPaths(events: readonly TaskEvent[], workspaceRoot: string): string[] {
  const seen = new Set<string>();
  for (const event of events) {
    if (event.type !== 'tool_requested') continue;
    const path = event.params.path;
    if (!path) continue;
    const rel = relative(workspaceRoot, resolve(workspaceRoot, path));
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) continue;
    seen.add(rel.split(sep).join('/'));
  }
  return [...seen];
}
