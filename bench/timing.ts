// The one timing helper every benchmark uses: warm up, repeat, take the median. Figures are only
// ever reported as ratios of two medians taken in the same run, so the helper never
// judges an absolute time.
import { performance } from 'node:perf_hooks';

/** Which clock a measurement reads. */
export type Clock = 'wall' | 'cpu';

/**
 * Milliseconds on a clock. 'cpu' is this process's user + system CPU time: for single-threaded,
 * CPU-bound code it stays fair when other processes compete for the cores (a wall-clock sample
 * then also counts the time slices given to others); it includes the GC's helper threads.
 * Child processes, browsers and I/O need 'wall'.
 */
export function clockNow(clock: Clock): number {
  if (clock === 'wall') return performance.now();
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** How a measurement is repeated. */
export interface TimingOptions {
  /** Default 'wall'. */
  readonly clock?: Clock;
  /** Untimed runs first, so the JIT and caches settle (default 1). */
  readonly warmup?: number;
  /** Timed runs; the median is reported (default 5). */
  readonly repeats?: number;
  /**
   * Keep repeating (up to `maxRepeats`) until the timed runs add up to this many milliseconds,
   * so that very short operations are not judged on one timer tick (default 0: exactly `repeats`).
   */
  readonly minTotalMs?: number;
  readonly maxRepeats?: number;
}

/** The timed runs of one operation, in milliseconds. */
export interface Timing {
  readonly median: number;
  readonly min: number;
  readonly runs: number;
}

/** Median of some numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function summarise(samples: readonly number[]): Timing {
  return { median: median(samples), min: Math.min(...samples), runs: samples.length };
}

function plan(options: TimingOptions): { warmup: number; repeats: number; minTotalMs: number; maxRepeats: number; now: () => number } {
  const repeats = options.repeats ?? 5;
  const clock = options.clock ?? 'wall';
  return {
    warmup: options.warmup ?? 1,
    repeats,
    minTotalMs: options.minTotalMs ?? 0,
    maxRepeats: Math.max(repeats, options.maxRepeats ?? 200),
    now: () => clockNow(clock),
  };
}

/** Times a synchronous operation. */
export function timeSync(run: () => unknown, options: TimingOptions = {}): Timing {
  const { warmup, repeats, minTotalMs, maxRepeats, now } = plan(options);
  for (let i = 0; i < warmup; i++) run();
  const samples: number[] = [];
  let total = 0;
  while (samples.length < repeats || (total < minTotalMs && samples.length < maxRepeats)) {
    const start = now();
    run();
    const elapsed = now() - start;
    samples.push(elapsed);
    total += elapsed;
  }
  return summarise(samples);
}

/** Times an asynchronous operation (runs one after another, never overlapping). */
export async function timeAsync(run: () => Promise<unknown>, options: TimingOptions = {}): Promise<Timing> {
  const { warmup, repeats, minTotalMs, maxRepeats, now } = plan(options);
  for (let i = 0; i < warmup; i++) await run();
  const samples: number[] = [];
  let total = 0;
  while (samples.length < repeats || (total < minTotalMs && samples.length < maxRepeats)) {
    const start = now();
    await run();
    const elapsed = now() - start;
    samples.push(elapsed);
    total += elapsed;
  }
  return summarise(samples);
}

/**
 * Times a few alternatives interleaved (A B C, A B C, ...) rather than one after the other, so a
 * noisy neighbour on a shared machine slows them alike and the ratios between them stay fair.
 */
export async function timeInterleaved<K extends string>(runs: Readonly<Record<K, () => unknown>>, options: TimingOptions = {}): Promise<Record<K, Timing>> {
  const { warmup, repeats, now } = plan(options);
  const keys = Object.keys(runs) as K[];
  const samples = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < warmup + repeats; round++) {
    for (const key of keys) {
      const start = now();
      await runs[key]();
      const elapsed = now() - start;
      if (round >= warmup) samples[key].push(elapsed);
    }
  }
  return Object.fromEntries(keys.map((k) => [k, summarise(samples[k])])) as Record<K, Timing>;
}

/** a / b, rounded for reports; null when either side is missing. */
export function ratio(a: number | null | undefined, b: number | null | undefined, digits = 2): number | null {
  if (a === null || a === undefined || b === null || b === undefined || b === 0) return null;
  return round(a / b, digits);
}

/** Rounds to a number of significant decimals, for results.json and the table. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
