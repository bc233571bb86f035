import type { TaskEvent } from '../core/task/events.js';
import { stopLeftoverCommands } from '../core/task/leftover-commands.js';
import type { Style } from './style.js';

/** Before `--resume`: stops what the task's commands left running when Smith was killed, and says so on `out`. */
export async function stopLeftoverProcesses(events: readonly TaskEvent[], out: NodeJS.WritableStream, style: Style): Promise<void> {
  for (const leftover of await stopLeftoverCommands(events)) {
    const stopped = leftover.found.filter((pid) => !leftover.survivors.includes(pid));
    if (stopped.length > 0) {
      out.write(`${style.yellow(`Stopped ${plural(stopped.length)} left running by \`${leftover.command}\` before the interruption (pid ${stopped.join(', ')}).`)}\n`);
    }
    if (leftover.survivors.length > 0) {
      out.write(`${style.red(`Could not stop ${plural(leftover.survivors.length)} of \`${leftover.command}\` (pid ${leftover.survivors.join(', ')}).`)}\n`);
    }
  }
}

function plural(count: number): string {
  return `${count} process${count === 1 ? '' : 'es'}`;
}
