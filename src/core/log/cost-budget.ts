/** A model request counted against the budget while it runs; released once its cost is charged (or it failed). */
export interface CostReservation {
  release(): void;
}

/** A reservation whose release runs `onRelease` once, however often it is called. */
export function releasedOnce(onRelease: () => void): CostReservation {
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      onRelease();
    },
  };
}

/**
 * The one cost limit (`--max-cost`, `smith.maxCost`) of a task and everything it starts: its
 * sub-agents running in parallel and every task a new_task hands over to share this object, so
 * they spend from one sum, live.
 *
 * Before each model request a task reserves a place. A request starts only while what was spent
 * plus an estimate of every request already in flight is below the limit; each request in flight is
 * estimated at the cost of the largest request finished so far anywhere in the tree (a context
 * only grows, so the next request of an agent rarely costs less than its last). Once the budget is
 * spent, no request starts anywhere. The total can pass the limit by the requests that were
 * allowed to start: at most the cost of one request, plus whatever the requests in flight cost
 * beyond that estimate (e.g. the first requests of sub-agents started together, before any of them
 * finished). docs/permissions.md#limits states the margin.
 */
export class CostBudget {
  private limit: number;
  private spent: number;
  private largest = 0;
  private inFlight = 0;

  /** `allowance`: the configured limit, also what "Continue" adds; `spent`: what the task's log already cost (a resumed task). */
  constructor(
    private readonly allowance: number,
    spent = 0,
  ) {
    this.limit = allowance;
    this.spent = spent;
  }

  /** US dollars spent so far by everything sharing the budget. */
  get total(): number {
    return this.spent;
  }

  /** The limit in force (the configured one, plus an allowance for each time the user chose to go on). */
  get currentLimit(): number {
    return this.limit;
  }

  /** True when no further request may start: what was spent plus what is in flight reached the limit. */
  exhausted(): boolean {
    return this.spent + this.inFlight * this.largest >= this.limit;
  }

  /** A place for one request, or undefined when the budget is spent (counting the requests in flight). */
  reserve(): CostReservation | undefined {
    if (this.exhausted()) return undefined;
    this.inFlight++;
    return releasedOnce(() => {
      this.inFlight--;
    });
  }

  /** Counts what a request (a response or a summary of the history) cost. */
  charge(cost: number): void {
    if (!Number.isFinite(cost) || cost <= 0) return;
    this.spent += cost;
    this.largest = Math.max(this.largest, cost);
  }

  /** The user chose to go on past the limit: one more allowance of the configured size. */
  raise(): void {
    this.limit += this.allowance;
  }
}
