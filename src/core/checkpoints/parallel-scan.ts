import { Batch, HANDOFF, type PreviousStat, type ScanReading } from './scan-batch.js';
import { STAT_FIELDS } from './scan-chunk.js';
import { type ScanHelpers, sharedHelpers } from './scan-helpers.js';

export type { PreviousStat, ScanReading } from './scan-batch.js';
export { KIND, READ, STAT_FIELDS } from './scan-chunk.js';
export { ScanHelpers, stopScanHelpers } from './scan-helpers.js';

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
    this.handOff(this.batches.length > 0);
    try {
      // Backwards: a helper works through its batches in order, so the last ones are least likely started.
      for (let i = this.batches.length - 1; i >= 0; i--) await this.batches[i]?.help(signal);
      for (const batch of this.batches) await batch.complete();
    } catch (error) {
      this.cancel();
      throw error;
    }
    this.release();
    const result = new Float64Array(this.batches.reduce((n, batch) => n + batch.paths.length, 0) * STAT_FIELDS);
    let offset = 0;
    for (const batch of this.batches) {
      result.set(batch.result.subarray(0, batch.paths.length * STAT_FIELDS), offset);
      offset += batch.paths.length * STAT_FIELDS;
    }
    return result;
  }

  /** The content hash (hex) of the path at `index`, when its READ field is `done`. */
  hashOf(index: number): string {
    return (this.batches[Math.floor(index / HANDOFF)] as Batch).hashOf(index % HANDOFF);
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
