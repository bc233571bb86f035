import { findMarkedProcesses } from '../process/command-marker.js';
import { killMarkedProcesses } from '../process/process-tree.js';
import type { TaskEvent } from '../log/events.js';

/** A command of the task whose processes were still running when the task was resumed. */
interface LeftoverCommand {
  readonly callId: string;
  readonly command: string;
  /** The processes found running (pids). */
  readonly found: readonly number[];
  /** Those still alive after SIGTERM and SIGKILL (checked on /proc). */
  readonly survivors: readonly number[];
}

/**
 * Finds the processes started by the commands in a task's log (`command_started`, by marker) that
 * are still running, and stops them: after a crash they are orphans the resumed task would run
 * beside. Call it before resuming, never while the task's own run is still going. Linux only
 * (/proc); elsewhere nothing is found.
 */
export async function stopLeftoverCommands(events: readonly TaskEvent[], options: { readonly graceMs?: number } = {}): Promise<LeftoverCommand[]> {
  const leftovers: LeftoverCommand[] = [];
  for (const event of events) {
    if (event.type !== 'command_started' || !event.marker) continue;
    const found = findMarkedProcesses(event.marker);
    if (found.length === 0) continue;
    const report = await killMarkedProcesses(event.marker, { graceMs: options.graceMs ?? 2000 });
    leftovers.push({ callId: event.callId, command: event.command, found, survivors: report.survivors });
  }
  return leftovers;
}

/** What stopping the leftovers did, one line per command and outcome, for the user. */
export function describeLeftovers(leftovers: readonly LeftoverCommand[]): { readonly stopped: boolean; readonly text: string }[] {
  const lines: { stopped: boolean; text: string }[] = [];
  for (const leftover of leftovers) {
    const stopped = leftover.found.filter((pid) => !leftover.survivors.includes(pid));
    if (stopped.length > 0) {
      lines.push({
        stopped: true,
        text: `Stopped ${plural(stopped.length)} left running by \`${leftover.command}\` before the interruption (pid ${stopped.join(', ')}).`,
      });
    }
    if (leftover.survivors.length > 0) {
      lines.push({
        stopped: false,
        text: `Could not stop ${plural(leftover.survivors.length)} of \`${leftover.command}\` (pid ${leftover.survivors.join(', ')}).`,
      });
    }
  }
  return lines;
}

function plural(count: number): string {
  return `${count} process${count === 1 ? '' : 'es'}`;
}
