import type { TaskEvent } from './events.js';
import { loopCounters } from './loop-counters.js';
import type { TaskOptions } from './task-types.js';
import { usageTotals } from './usage-totals.js';

const DEFAULT_MAX_MISTAKES = 3;

/**
 * The limits of one run of the loop: model requests, cost and the model's consecutive mistakes.
 * They are counted over the log, so a resumed task goes on counting where it stopped; the user may
 * raise a reached request or cost limit by another allowance of the same size.
 */
export class RunLimits {
  private maxRequests: number;
  private maxCost: number | undefined;

  constructor(
    private readonly options: Pick<TaskOptions, 'maxIterations' | 'maxCost' | 'maxConsecutiveMistakes'>,
    /** Requests made by the tasks that handed over to this one (new_task). */
    private readonly iterationsUsed: number,
  ) {
    this.maxRequests = options.maxIterations;
    this.maxCost = options.maxCost;
  }

  /** Why the task stops before its next request, or undefined to go on; `mayGoOn` asks the user at a limit they may raise. */
  async reached(events: readonly TaskEvent[], mayGoOn: (reason: string) => Promise<boolean>): Promise<string | undefined> {
    const counted = loopCounters(events);
    if (this.iterationsUsed + counted.requests >= this.maxRequests) {
      const stop = `Stopped after ${this.maxRequests} iterations (the iteration limit) before the task was completed.`;
      if (!(await mayGoOn(stop))) return stop;
      this.maxRequests += this.options.maxIterations;
    }
    const spent = usageTotals(events).cost ?? 0;
    if (this.maxCost !== undefined && spent >= this.maxCost) {
      const stop = `Stopped at $${spent.toFixed(4)}, over the cost limit of $${this.maxCost.toFixed(2)}, before the task was completed.`;
      if (!(await mayGoOn(stop))) return stop;
      this.maxCost += this.options.maxCost ?? 0;
    }
    if (counted.consecutiveMistakes >= (this.options.maxConsecutiveMistakes ?? DEFAULT_MAX_MISTAKES)) {
      return `Stopped after ${counted.consecutiveMistakes} consecutive mistakes by the model (invalid or failed tool calls). Try a more capable model or give more guidance.`;
    }
    return undefined;
  }
}
