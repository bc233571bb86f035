import { releasedOnce, type CostReservation } from './cost-budget.js';

/**
 * What a task spends from a limit it shares with other tasks running beside it (the panel's
 * `smith.maxTotalCost`); TaskOptions.sharedCosts. A task charges its own requests (and its
 * sub-agents theirs: they inherit it) and, before each request, asks whether the sum still allows one.
 */
export interface SharedCosts {
  /** US dollars spent by all the tasks counted. */
  readonly total: number;
  /** The limit in force; Infinity without one. */
  readonly currentLimit: number;
  exhausted(): boolean;
  reserve(): CostReservation | undefined;
  charge(cost: number): void;
  /** The user chose to go on past `seenLimit`: one more allowance, unless another task's user already gave it. */
  raise(seenLimit: number): void;
}

/** One task's part of a TotalCostLimit: what it charges counts until it leaves. */
export interface CostShare extends SharedCosts {
  /** What this task charged, with what its log had cost when it joined. */
  readonly spent: number;
  /** The task is no longer counted (closed): its cost leaves the sum. */
  leave(): void;
}

/**
 * A cost limit over several tasks at once: the sum of what each task still counted has spent
 * (its log's cost when it joined, then every request charged) against a limit read from the
 * settings each time, so a changed setting applies at once. A request starts only while the sum
 * plus an estimate of the requests in flight (each at the largest request so far, as in
 * cost-budget.ts) is below the limit. When the limit is reached every task stops before its next
 * request and asks; the first "go on" adds one allowance of the configured size for all of them.
 * Once no task is counted, the allowances given are forgotten.
 */
export class TotalCostLimit {
  private readonly shares = new Set<{ spent: number }>();
  private raises = 0;
  private largest = 0;
  private inFlight = 0;

  /** `limit`: the configured total (undefined or 0: none), read at every check. */
  constructor(private readonly limit: () => number | undefined) {}

  get total(): number {
    let sum = 0;
    for (const share of this.shares) sum += share.spent;
    return sum;
  }

  get currentLimit(): number {
    const configured = this.limit();
    return configured === undefined || !(configured > 0) ? Number.POSITIVE_INFINITY : configured * (1 + this.raises);
  }

  exhausted(): boolean {
    return this.total + this.inFlight * this.largest >= this.currentLimit;
  }

  /** Counts a task from now on, starting from what it has already cost (a task continued from its log). */
  join(spent = 0): CostShare {
    const share = { spent: Number.isFinite(spent) && spent > 0 ? spent : 0 };
    this.shares.add(share);
    const pool = this;
    return {
      get spent() {
        return share.spent;
      },
      get total() {
        return pool.total;
      },
      get currentLimit() {
        return pool.currentLimit;
      },
      exhausted: () => this.exhausted(),
      reserve: () => this.reserve(),
      charge: (cost) => {
        if (!Number.isFinite(cost) || cost <= 0) return;
        share.spent += cost;
        this.largest = Math.max(this.largest, cost);
      },
      raise: (seenLimit) => {
        if (this.currentLimit === seenLimit && Number.isFinite(seenLimit)) this.raises++;
      },
      leave: () => {
        this.shares.delete(share);
        if (this.shares.size === 0) {
          this.raises = 0;
          this.largest = 0;
        }
      },
    };
  }

  private reserve(): CostReservation | undefined {
    if (this.exhausted()) return undefined;
    this.inFlight++;
    return releasedOnce(() => {
      this.inFlight--;
    });
  }
}
