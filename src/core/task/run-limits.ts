import type { CostBudget, CostReservation } from '../log/cost-budget.js';
import type { TaskEvent } from '../log/events.js';
import { loopCounters } from './loop-counters.js';
import type { TaskOptions } from './task-types.js';
import { formatUsd } from '../../shared/money.js';

const DEFAULT_MAX_MISTAKES = 3;

/**
 * The limits of one run of the loop: model requests, cost (the task's own limit, and the total
 * limit it shares with the tasks running beside it) and the model's consecutive mistakes.
 * Requests and mistakes are counted over the log, so a resumed task goes on counting where it
 * stopped; the cost is the shared budget of the whole tree of tasks (cost-budget.ts). The user may
 * raise a reached request or cost limit by another allowance of the same size.
 */
export class RunLimits {
  private maxRequests: number;

  constructor(
    private readonly options: Pick<TaskOptions, 'maxIterations' | 'maxConsecutiveMistakes' | 'sharedCosts'>,
    /** Requests made by the tasks that handed over to this one (new_task). */
    private readonly iterationsUsed: number,
    /** The cost limit shared with the sub-agents and the chain; absent without one. */
    private readonly costs?: CostBudget,
  ) {
    this.maxRequests = options.maxIterations;
  }

  /** Why the task stops before its next request, or undefined to go on; `mayGoOn` asks the user at a limit they may raise. */
  async reached(events: readonly TaskEvent[], mayGoOn: (reason: string) => Promise<boolean>): Promise<string | undefined> {
    const counted = loopCounters(events);
    if (this.iterationsUsed + counted.requests >= this.maxRequests) {
      const stop = `Stopped after ${this.maxRequests} iterations (the iteration limit) before the task was completed.`;
      if (!(await mayGoOn(stop))) return stop;
      this.maxRequests += this.options.maxIterations;
    }
    if (this.costs?.exhausted()) {
      const { total, currentLimit } = this.costs;
      const where = total >= currentLimit ? 'over' : 'with the requests of other agents still running, at';
      const stop = `Stopped at ${formatUsd(total, 4)}, ${where} the cost limit of ${formatUsd(currentLimit)}, before the task was completed.`;
      if (!(await mayGoOn(stop))) return stop;
      this.costs.raise();
    }
    const shared = this.options.sharedCosts;
    if (shared?.exhausted()) {
      const { total, currentLimit } = shared;
      const where = total >= currentLimit ? 'over' : 'with the requests of other tasks still running, at';
      const stop = `Stopped at ${formatUsd(total, 4)} spent by the tasks running at once, ${where} their total cost limit of ${formatUsd(currentLimit)}, before the task was completed.`;
      if (!(await mayGoOn(stop))) return stop;
      shared.raise(currentLimit);
    }
    if (counted.consecutiveMistakes >= (this.options.maxConsecutiveMistakes ?? DEFAULT_MAX_MISTAKES)) {
      return `Stopped after ${counted.consecutiveMistakes} consecutive mistakes by the model (invalid or failed tool calls). Try a more capable model or give more guidance.`;
    }
    return undefined;
  }

  /**
   * Takes the cost budget's place for the request about to start; undefined when the budget was
   * spent meanwhile (by a sub-agent or a request that finished), and `reached` must be asked again.
   */
  reserveRequest(): CostReservation | undefined {
    const own = this.costs ? this.costs.reserve() : NO_RESERVATION;
    if (!own || !this.options.sharedCosts) return own;
    const shared = this.options.sharedCosts.reserve();
    if (!shared) {
      own.release();
      return undefined;
    }
    return {
      release: () => {
        own.release();
        shared.release();
      },
    };
  }
}

const NO_RESERVATION: CostReservation = { release: () => {} };
