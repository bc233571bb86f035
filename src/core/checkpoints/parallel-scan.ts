import { Batch, HANDOFF, type PreviousStat, type ScanReading } from './scan-batch.js';
import { STAT_FIELDS } from './scan-chunk.js';
import { type ScanHelpers, sharedHelpers } from './scan-helpers.js';

export type { PreviousStat, ScanReading } from './scan-batch.js';
export { KIND, READ, STAT_FIELDS } from './scan-chunk.js';
export { ScanHelpers, stopScanHelpers } from './scan-helpers.js';

/** Which paths of a scan are done (see ScanQueue.advance). */
export interface ScanProgress {
  readonly prefixEnd: number;
  readonly suffixStart: number;
  readonly finished: boolean;
}

/** HANDOFF, read once: `push` runs for every file, and an imported binding is a getter call under a CommonJS transform. */
const BATCH_PATHS = HANDOFF;

/**
 * Paths to scan, taken as a walk finds them: each is lstatted and, when the queue reads, each
 * regular file whose stat is not its previous one is read and hashed and handed to
 * `reading.take`. Node's file system calls cost microseconds of CPU each, four or five a file, so
 * a workspace of 50,000 files is seconds on one core; every HANDOFF paths go to a helper thread
 * while the walk goes on, and at the end the main thread takes chunks of the batches the helpers
 * have not reached. A small workspace never leaves the main thread. Helpers (scan-helpers.ts) wait while more than
 * AHEAD_KB of what they read has not been taken, so memory stays bounded.
 */
export class ScanQueue {
  private readonly batches: Batch[] = [];
  private pending: Batch;
  private readonly ahead = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  private readonly aheadCount = new Int32Array(this.ahead);
  /** Every path's numbers, once `end` is called (see advance). */
  stats = new Float64Array(0);
  /** Batches not yet through this thread's hands are those before `toHelp`; done are those before `prefix` and from `suffix` on. */
  private toHelp = 0;
  private prefix = 0;
  private suffix = 0;

  constructor(
    private readonly reading?: ScanReading,
    private readonly helpers: ScanHelpers = sharedHelpers,
  ) {
    this.pending = new Batch(reading);
  }

  /**
   * Adds a path; its results are at index (the number of paths pushed before it) * STAT_FIELDS.
   * `listedAsFile`: its folder listing said it is a regular file; `previous`: its stat when it was
   * last read, and `kind` (from KIND) what it was then. Plain arguments: a scan pushes every file.
   */
  push(path: string, listedAsFile = false, kind = -1, previous?: PreviousStat): void {
    this.pending.add(path, listedAsFile, kind, previous);
    if (this.pending.paths.length === BATCH_PATHS) this.handOff(true);
  }

  /** The stat of every path pushed: STAT_FIELDS numbers each (a kind from KIND, size, mtimeMs, inode, a READ). */
  async finish(signal?: AbortSignal): Promise<Float64Array> {
    this.end();
    while (!(await this.advance(signal)).finished);
    return this.stats;
  }

  /**
   * No more paths: the last ones go to a helper too (unless they are all there is). From now on
   * `stats` has room for every path, and each batch's numbers are copied into it once it is done.
   */
  end(): void {
    this.handOff(this.batches.length > 0);
    this.stats = new Float64Array(this.batches.reduce((n, batch) => n + batch.paths.length, 0) * STAT_FIELDS);
    this.toHelp = this.batches.length;
    this.suffix = this.batches.length;
  }

  /**
   * One step of the scan after `end`: this thread scans what no helper has claimed of the last
   * batch it has not been through yet (they go from the first batch on, this thread from the
   * last), or, with nothing left to claim, waits for the first batch not done. Says which paths
   * are done: those before `prefixEnd` and from `suffixStart` on, their numbers in `stats`.
   */
  async advance(signal?: AbortSignal): Promise<ScanProgress> {
    try {
      if (this.toHelp > this.prefix) await this.batches[--this.toHelp]?.help(signal);
      else if (this.prefix < this.batches.length) await this.batches[this.prefix]?.complete();
    } catch (error) {
      this.cancel();
      throw error;
    }
    while (this.prefix < this.suffix && this.take(this.prefix)) this.prefix++;
    while (this.suffix > this.prefix && this.take(this.suffix - 1)) this.suffix--;
    const finished = this.prefix === this.suffix;
    if (finished) this.release();
    const total = this.stats.length / STAT_FIELDS;
    return { prefixEnd: finished ? total : this.prefix * HANDOFF, suffixStart: finished ? total : Math.min(total, this.suffix * HANDOFF), finished };
  }

  /** Copies a batch's numbers into `stats` when every chunk of it is done; true when it is. */
  private take(index: number): boolean {
    const batch = this.batches[index] as Batch;
    if (!batch.allDone()) return false;
    this.stats.set(batch.result.subarray(0, batch.paths.length * STAT_FIELDS), index * HANDOFF * STAT_FIELDS);
    return true;
  }

  /** The content hash (hex) of the path at `index`, when its READ field is `done`. */
  hashOf(index: number): string {
    return (this.batches[Math.floor(index / BATCH_PATHS)] as Batch).hashOf(index % BATCH_PATHS);
  }

  /** Gives up: the helpers stop after their current chunk, and what they still send is dropped. */
  cancel(): void {
    for (const batch of [...this.batches, this.pending]) batch.cancel();
    this.release();
  }

  /** Helpers never wait on this queue's read-ahead again. */
  private release(): void {
    Atomics.store(this.aheadCount, 0, -(2 ** 30));
    Atomics.notify(this.aheadCount, 0);
  }

  private handOff(toHelper: boolean): void {
    if (this.pending.paths.length === 0) return;
    const batch = this.pending;
    this.batches.push(batch);
    this.pending = new Batch(this.reading);
    if (toHelper) this.helpers.take(batch, this.ahead);
  }
}
