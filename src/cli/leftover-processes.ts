import type { TaskEvent } from '../core/log/events.js';
import { describeLeftovers, stopLeftoverCommands } from '../core/task/leftover-commands.js';
import type { Style } from './style.js';

/** Before `--resume`: stops what the task's commands left running when Smith was killed, and says so on `out`. */
export async function stopLeftoverProcesses(events: readonly TaskEvent[], out: NodeJS.WritableStream, style: Style): Promise<void> {
  for (const line of describeLeftovers(await stopLeftoverCommands(events))) {
    out.write(`${line.stopped ? style.yellow(line.text) : style.red(line.text)}\n`);
  }
}
