import type { HookEvent, HookOutcome } from './hooks.js';
import type { TaskLog } from '../log/task-log.js';

/** Logs the runs of one event's hooks as a `hooks_ran` event (nothing when no hook ran). */
export function logHookRuns(
  log: TaskLog,
  event: HookEvent,
  outcome: HookOutcome,
  about: { tool?: string; callId?: string; input?: Readonly<Record<string, string>>; context?: string } = {},
): void {
  if (outcome.runs.length === 0) return;
  log.append({
    type: 'hooks_ran',
    event,
    runs: outcome.runs,
    ...(about.tool ? { tool: about.tool } : {}),
    ...(about.callId ? { callId: about.callId } : {}),
    ...(about.input ? { input: about.input } : {}),
    ...(about.context ? { context: about.context } : {}),
  });
}
