import { lstatSync, type Stats } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';

/** Numbers per path in a StatQueue's result: kind, size, mtimeMs, ino. */
export const STAT_FIELDS = 4;
/** Kinds in a StatQueue's result. */
export const KIND = { missing: 0, file: 1, exec: 2, link: 3, other: 4 } as const;

/** Paths statted between two claims of work, and between two yields to the event loop. */
const CHUNK = 256;
/** Paths handed to the helpers at once; fewer than this in all are statted on the main thread alone. */
const HANDOFF = 8 * CHUNK;

/**
 * The helpers' program, as text: an `eval` worker needs no file of its own, so it runs the same
 * from the bundled extension, the CLI and the sources. For each batch it claims chunks of the
 * batch's shared counter, as the main thread does, writes each path's stat into the shared
 * result and marks the chunk done, then replies. statChunk below is the same loop: keep the two alike.
 */
const WORKER_SOURCE = `
const { lstatSync } = require('node:fs');
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, paths, values, counter, done, chunk }) => {
  const result = new Float64Array(values);
  const next = new Int32Array(counter);
  const finished = new Int32Array(done);
  for (let start = Atomics.add(next, 0, chunk); start < paths.length; start = Atomics.add(next, 0, chunk)) {
    const end = Math.min(paths.length, start + chunk);
    for (let i = start; i < end; i++) {
      let stats;
      try { stats = lstatSync(paths[i], { throwIfNoEntry: false }); } catch {}
      const at = i * 4;
      result[at] = !stats ? 0 : stats.isSymbolicLink() ? 3 : !stats.isFile() ? 4 : stats.mode & 0o111 ? 2 : 1;
      if (stats) { result[at + 1] = stats.size; result[at + 2] = stats.mtimeMs; result[at + 3] = stats.ino; }
    }
    Atomics.store(finished, start / chunk, 1);
  }
  parentPort.postMessage(id);
});
`;

/** Stats one chunk of a batch on this thread (the helpers' loop). */
function statChunk(paths: readonly string[], result: Float64Array, start: number, end: number): void {
  for (let i = start; i < end; i++) {
    let stats: Stats | undefined;
    try {
      stats = lstatSync(paths[i] ?? '', { throwIfNoEntry: false });
    } catch {
      // unreadable: treated as gone, as a failed lstat always was
    }
    const at = i * STAT_FIELDS;
    result[at] = !stats ? KIND.missing : stats.isSymbolicLink() ? KIND.link : !stats.isFile() ? KIND.other : stats.mode & 0o111 ? KIND.exec : KIND.file;
    if (stats) {
      result[at + 1] = stats.size;
      result[at + 2] = stats.mtimeMs;
      result[at + 3] = stats.ino;
    }
  }
}

/** Some paths to stat, their shared result, the counter threads claim chunks from, and which chunks are done. */
class Batch {
  readonly values: SharedArrayBuffer;
  readonly counter = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  readonly done: SharedArrayBuffer;
  readonly result: Float64Array;
  private readonly next: Int32Array;
  private readonly finished: Int32Array;
  /** Settles when the helper it was handed to is through with it (or failed). */
  reply: Promise<void> = Promise.resolve();

  constructor(readonly paths: readonly string[]) {
    this.values = new SharedArrayBuffer(Math.max(1, paths.length * STAT_FIELDS) * Float64Array.BYTES_PER_ELEMENT);
    this.done = new SharedArrayBuffer(Math.max(1, Math.ceil(paths.length / CHUNK)) * Int32Array.BYTES_PER_ELEMENT);
    this.result = new Float64Array(this.values);
    this.next = new Int32Array(this.counter);
    this.finished = new Int32Array(this.done);
  }

  /** Claims and stats chunks on this thread until none is left, yielding after each. */
  async help(signal: AbortSignal | undefined): Promise<void> {
    for (let start = Atomics.add(this.next, 0, CHUNK); start < this.paths.length; start = Atomics.add(this.next, 0, CHUNK)) {
      statChunk(this.paths, this.result, start, Math.min(this.paths.length, start + CHUNK));
      Atomics.store(this.finished, start / CHUNK, 1);
      await yieldToEventLoop();
      signal?.throwIfAborted();
    }
  }

  /** Every chunk is claimed: waits for the helper's, and stats here whatever a failed helper left undone. */
  async complete(): Promise<void> {
    if (this.allDone()) return;
    await this.reply;
    for (let chunk = 0; chunk * CHUNK < this.paths.length; chunk++) {
      if (Atomics.load(this.finished, chunk) === 1) continue;
      statChunk(this.paths, this.result, chunk * CHUNK, Math.min(this.paths.length, (chunk + 1) * CHUNK));
    }
  }

  /** No more claims: a helper stops after its current chunk. */
  cancel(): void {
    Atomics.store(this.next, 0, this.paths.length);
  }

  private allDone(): boolean {
    for (let chunk = 0; chunk * CHUNK < this.paths.length; chunk++) if (Atomics.load(this.finished, chunk) !== 1) return false;
    return true;
  }
}

/**
 * Paths to lstat, taken as a walk finds them. Node's lstat costs a few microseconds of CPU per
 * file, so a workspace of 50,000 files is a fifth of a second on one core; git status stats on
 * several threads, and so does this: every HANDOFF paths go to a helper thread while the walk
 * goes on, and at the end the main thread takes chunks of the batches the helpers have not
 * reached. A small workspace never leaves the main thread.
 */
export class StatQueue {
  private readonly batches: Batch[] = [];
  private pending: string[] = [];
  private count = 0;

  /** Adds a path; its stat is at index (the number of paths pushed before it) * STAT_FIELDS of the result. */
  push(path: string): void {
    this.pending.push(path);
    if (this.pending.length === HANDOFF) this.handOff(true);
  }

  /** The stat of every path pushed: STAT_FIELDS numbers each (a kind from KIND, size, mtimeMs, inode). */
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
    const result = new Float64Array(this.count * STAT_FIELDS);
    let offset = 0;
    for (const batch of this.batches) {
      result.set(batch.result.subarray(0, batch.paths.length * STAT_FIELDS), offset);
      offset += batch.paths.length * STAT_FIELDS;
    }
    return result;
  }

  /** Gives up: the helpers stop after their current chunk. */
  cancel(): void {
    for (const batch of this.batches) batch.cancel();
  }

  private handOff(toHelper: boolean): void {
    if (this.pending.length === 0) return;
    const batch = new Batch(this.pending);
    this.pending = [];
    this.count += batch.paths.length;
    this.batches.push(batch);
    if (toHelper) helpers.take(batch);
  }
}

/**
 * The helper threads, shared by every store in the process, started when first needed. A helper
 * that fails is not replaced: the main thread stats what it left undone, and does all the work
 * from then on.
 */
class StatHelpers {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, () => void>();
  private nextId = 0;
  private turn = 0;
  private failed = false;

  /** Hands a batch to a helper, if there is one; the batch's `reply` settles when the helper is through with it. */
  take(batch: Batch): void {
    const worker = this.ready();
    if (!worker) return;
    const id = this.nextId++;
    batch.reply = new Promise<void>((resolve) => this.waiting.set(id, resolve));
    worker.ref(); // referenced while it has work, so that awaiting the work keeps the process alive
    worker.postMessage({ id, paths: batch.paths, values: batch.values, counter: batch.counter, done: batch.done, chunk: CHUNK });
  }

  private ready(): Worker | undefined {
    if (this.failed) return undefined;
    const wanted = Math.min(3, availableParallelism() - 1);
    while (this.workers.length < wanted) {
      try {
        // No inherited flags: the program is plain JavaScript, and loaders such as tsx only slow its start.
        const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
        worker.unref(); // an idle helper never keeps the process alive
        worker.on('message', (id: number) => this.settle(id));
        worker.on('error', () => this.fail());
        worker.on('exit', () => this.fail());
        this.workers.push(worker);
      } catch {
        this.fail();
        return undefined;
      }
    }
    return this.workers[this.turn++ % Math.max(1, this.workers.length)];
  }

  private settle(id: number): void {
    this.waiting.get(id)?.();
    this.waiting.delete(id);
    if (this.waiting.size === 0) for (const worker of this.workers) worker.unref();
  }

  /**
   * A helper failed: stop using helpers, and once every one has stopped (none may still be writing
   * a chunk the main thread is about to redo), release everyone waiting for one.
   */
  private fail(): void {
    if (this.failed) return;
    this.failed = true;
    const stopping = this.workers.map((worker) => worker.terminate().catch(() => undefined));
    this.workers.length = 0;
    void Promise.all(stopping).then(() => {
      for (const resolve of this.waiting.values()) resolve();
      this.waiting.clear();
    });
  }
}

const helpers = new StatHelpers();
