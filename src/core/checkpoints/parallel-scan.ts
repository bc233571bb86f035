import * as crypto from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { KIND, PREVIOUS_FIELDS, READ, type ScanIo, type ScanJob, STAT_FIELDS, scanChunk, sha256HexOf } from './scan-chunk.js';

export { KIND, READ, STAT_FIELDS } from './scan-chunk.js';

/** Paths scanned between two claims of work, and between two yields to the event loop. */
const CHUNK = 256;
/** Paths handed to the helpers at once; fewer than this in all are scanned on the main thread alone. */
const HANDOFF = 8 * CHUNK;
/** Read content a helper sends in one message. */
const PART_BYTES = 1024 * 1024;
/** Read content (in KB) sent but not yet taken by the main thread, beyond which helpers wait: memory stays bounded however big the workspace. */
const AHEAD_KB = 64 * 1024;
const contentHashHex = sha256HexOf(crypto);
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** The unit of the read-ahead count: KB, rounded up, at least one per file. */
function aheadUnits(bytes: number): number {
  return Math.floor(bytes / 1024) + 1;
}

/**
 * The helpers' program, as text: an `eval` worker needs no file of its own, so it runs the same
 * from the bundled extension, the CLI and the sources. The scanning itself is scanChunk's own text,
 * so the main thread and the helpers run the same code. For each batch a helper claims chunks of the
 * batch's shared counter, as the main thread does; it sends the content it read in parts (its
 * buffer handed over, not copied), then says the chunk is done, and when no chunk is left, that it
 * is through with the batch.
 */
const WORKER_SOURCE = `
const { lstatSync, openSync, fstatSync, readSync, closeSync } = require('node:fs');
const crypto = require('node:crypto');
const { parentPort, workerData } = require('node:worker_threads');
var __name = (target) => target;
const scanChunk = (${scanChunk.toString()});
const hash = (${sha256HexOf.toString()})(crypto);
const aheadUnits = (${aheadUnits.toString()});
const { kind, read, openFlags, chunk, partBytes, aheadKb } = workerData;
parentPort.on('message', (batch) => {
  const paths = batch.paths.split('\\0');
  const job = {
    paths,
    values: new Float64Array(batch.values),
    reading: batch.reading && {
      previous: new Float64Array(batch.reading.previous),
      listedAsFile: new Uint8Array(batch.reading.listedAsFile),
      maxBytes: batch.reading.maxBytes,
    },
  };
  const next = new Int32Array(batch.counter);
  const ahead = new Int32Array(batch.ahead);
  let items = [];
  let hashes = '';
  let bytes = 0;
  const send = () => {
    if (items.length === 0) return;
    const joined = Buffer.allocUnsafeSlow(bytes);
    const index = new Float64Array(items.length * 2);
    let at = 0;
    for (let k = 0; k < items.length; k++) {
      const [i, content] = items[k];
      content.copy(joined, at);
      at += content.length;
      index[2 * k] = i;
      index[2 * k + 1] = content.length;
    }
    parentPort.postMessage({ id: batch.id, type: 'part', contents: joined.buffer, index: index.buffer, hashes }, [joined.buffer, index.buffer]);
    items = [];
    hashes = '';
    bytes = 0;
  };
  const io = {
    lstatSync, openSync, fstatSync, readSync, closeSync, hash, kind, read, openFlags,
    reserve(size) {
      for (;;) {
        const taken = Atomics.load(ahead, 0);
        if (taken <= 0 || taken + aheadUnits(size) <= aheadKb) return;
        send();
        Atomics.wait(ahead, 0, taken, 100);
      }
    },
    deliver(i, content, contentHash) {
      items.push([i, content]);
      hashes += contentHash;
      bytes += content.length;
      Atomics.add(ahead, 0, aheadUnits(content.length));
      if (bytes >= partBytes) send();
    },
  };
  for (let start = Atomics.add(next, 0, chunk); start < paths.length; start = Atomics.add(next, 0, chunk)) {
    scanChunk(io, job, start, Math.min(paths.length, start + chunk));
    send();
    parentPort.postMessage({ id: batch.id, type: 'chunk', chunk: start / chunk });
  }
  parentPort.postMessage({ id: batch.id, type: 'end' });
});
`;

/** What the helpers say about a batch. */
type HelperMessage =
  | { readonly id: number; readonly type: 'part'; readonly contents: ArrayBuffer; readonly index: ArrayBuffer; readonly hashes: string }
  | { readonly id: number; readonly type: 'chunk'; readonly chunk: number }
  | { readonly id: number; readonly type: 'end' };

/** How a queue reads content: files up to `maxBytes`, each handed to `take` with its hash (hex) as soon as it is read. */
export interface ScanReading {
  readonly maxBytes: number;
  take(hash: string, content: Buffer): void;
}

/** A file's stat when its content was last read (with its kind from KIND), so an unchanged one is not read again. */
export interface PreviousStat {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

/** Up to HANDOFF paths, their shared results, the counter threads claim chunks from, and which chunks are done. */
class Batch {
  readonly paths: string[] = [];
  readonly values = new SharedArrayBuffer(HANDOFF * STAT_FIELDS * Float64Array.BYTES_PER_ELEMENT);
  readonly counter = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  readonly result = new Float64Array(this.values);
  readonly job: ScanJob;
  /** The content hash of each file read, by index in the batch. */
  private readonly hashes: string[] = [];
  private readonly shared: { previous: SharedArrayBuffer; listedAsFile: SharedArrayBuffer } | undefined;
  /** How this thread scans the batch's chunks: what it reads is handed on at once. */
  readonly io: ScanIo;
  private readonly next = new Int32Array(this.counter);
  private readonly received = new Uint8Array(HANDOFF / CHUNK);
  /** Settles when the helper it was handed to is through with it (or failed). */
  reply: Promise<void> = Promise.resolve();
  cancelled = false;

  constructor(private readonly reading: ScanReading | undefined) {
    this.io = {
      lstatSync,
      openSync,
      fstatSync,
      readSync,
      closeSync,
      hash: contentHashHex,
      kind: KIND,
      read: READ,
      openFlags: OPEN_FLAGS,
      reserve: () => undefined,
      deliver: (i, content, hash) => {
        this.hashes[i] = hash;
        reading?.take(hash, content);
      },
    };
    if (!reading) {
      this.job = { paths: this.paths, values: this.result };
      return;
    }
    this.shared = {
      previous: new SharedArrayBuffer(HANDOFF * PREVIOUS_FIELDS * Float64Array.BYTES_PER_ELEMENT),
      listedAsFile: new SharedArrayBuffer(HANDOFF),
    };
    this.job = {
      paths: this.paths,
      values: this.result,
      reading: {
        previous: new Float64Array(this.shared.previous),
        listedAsFile: new Uint8Array(this.shared.listedAsFile),
        maxBytes: reading.maxBytes,
      },
    };
  }

  add(path: string, listedAsFile: boolean, kind: number, previous: PreviousStat | undefined): void {
    const i = this.paths.length;
    this.paths.push(path);
    const reading = this.job.reading;
    if (!reading) return;
    reading.listedAsFile[i] = listedAsFile ? 1 : 0;
    const at = i * PREVIOUS_FIELDS;
    reading.previous[at] = previous ? kind : -1;
    if (previous) {
      reading.previous[at + 1] = previous.size;
      reading.previous[at + 2] = previous.mtimeMs;
      reading.previous[at + 3] = previous.ino;
    }
  }

  /** The message that hands this batch to a helper. */
  message(id: number, ahead: SharedArrayBuffer): object {
    const reading = this.shared && { ...this.shared, maxBytes: this.reading?.maxBytes ?? 0 };
    // One string (a path never holds a NUL): copying thousands of strings one by one costs the main thread more than the stats it hands off.
    return { id, paths: this.paths.join('\0'), values: this.values, counter: this.counter, ahead, reading };
  }

  hashOf(i: number): string {
    return this.hashes[i] as string;
  }

  /** Content a helper read: handed on, unless the scan was given up. */
  took(contents: ArrayBuffer, index: ArrayBuffer, hashes: string, ahead: Int32Array): void {
    const rows = new Float64Array(index);
    let units = 0;
    for (let k = 0, at = 0; k < rows.length; k += 2) {
      const i = rows[k] as number;
      const length = rows[k + 1] as number;
      const hash = hashes.slice(k * 32, k * 32 + 64);
      this.hashes[i] = hash;
      if (!this.cancelled) this.reading?.take(hash, Buffer.from(contents, at, length));
      at += length;
      units += aheadUnits(length);
    }
    Atomics.sub(ahead, 0, units);
    Atomics.notify(ahead, 0);
  }

  chunkDone(chunk: number): void {
    this.received[chunk] = 1;
  }

  /** Claims and scans chunks on this thread until none is left, yielding after each. */
  async help(signal: AbortSignal | undefined): Promise<void> {
    for (let start = Atomics.add(this.next, 0, CHUNK); start < this.paths.length; start = Atomics.add(this.next, 0, CHUNK)) {
      scanChunk(this.io, this.job, start, Math.min(this.paths.length, start + CHUNK));
      this.received[start / CHUNK] = 1;
      await yieldToEventLoop();
      signal?.throwIfAborted();
    }
  }

  /** Every chunk is claimed: waits for the helper's, and scans here whatever a failed helper left undone. */
  async complete(): Promise<void> {
    if (this.allDone()) return;
    await this.reply;
    for (let chunk = 0; chunk * CHUNK < this.paths.length; chunk++) {
      if (this.received[chunk] === 1) continue;
      scanChunk(this.io, this.job, chunk * CHUNK, Math.min(this.paths.length, (chunk + 1) * CHUNK));
      this.received[chunk] = 1;
    }
  }

  /** No more claims: a helper stops after its current chunk. */
  cancel(): void {
    this.cancelled = true;
    Atomics.store(this.next, 0, HANDOFF);
  }

  private allDone(): boolean {
    for (let chunk = 0; chunk * CHUNK < this.paths.length; chunk++) if (this.received[chunk] !== 1) return false;
    return true;
  }
}

/**
 * Paths to scan, taken as a walk finds them: each is lstatted and, when the queue reads, each
 * regular file whose stat is not its previous one is read and hashed and handed to
 * `reading.take`. Node's file system calls cost microseconds of CPU each, four or five a file, so
 * a workspace of 50,000 files is seconds on one core; every HANDOFF paths go to a helper thread
 * while the walk goes on, and at the end the main thread takes chunks of the batches the helpers
 * have not reached. A small workspace never leaves the main thread. Helpers wait while more than
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
    if (this.pending.paths.length === HANDOFF) this.handOff(true);
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

/**
 * The helper threads, started when first needed and shared by every store of the process. A
 * helper that fails is not replaced: the main thread scans what it left undone, and does all the
 * work from then on. Idle helpers never keep the process alive; `stop` ends them (the extension
 * calls it when it deactivates).
 */
export class ScanHelpers {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, { batch: Batch; ahead: Int32Array; done: () => void }>();
  private nextId = 0;
  private turn = 0;
  private failed = false;

  constructor(private readonly count = Math.min(3, availableParallelism() - 1)) {}

  /** Hands a batch to a helper, if there is one; the batch's `reply` settles when the helper is through with it. */
  take(batch: Batch, ahead: SharedArrayBuffer): void {
    const worker = this.ready();
    if (!worker) return;
    const id = this.nextId++;
    batch.reply = new Promise<void>((done) => this.waiting.set(id, { batch, ahead: new Int32Array(ahead), done }));
    worker.ref(); // referenced while it has work, so that awaiting the work keeps the process alive
    worker.postMessage(batch.message(id, ahead));
  }

  /** Ends every helper; batches they had are finished on the main thread, and no helper starts again. */
  async stop(): Promise<void> {
    await this.fail();
  }

  private ready(): Worker | undefined {
    if (this.failed) return undefined;
    while (this.workers.length < this.count) {
      try {
        // No inherited flags: the program is plain JavaScript, and loaders such as tsx only slow its start.
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          execArgv: [],
          workerData: { kind: KIND, read: READ, openFlags: OPEN_FLAGS, chunk: CHUNK, partBytes: PART_BYTES, aheadKb: AHEAD_KB },
        });
        worker.unref(); // an idle helper never keeps the process alive
        worker.on('message', (message: HelperMessage) => this.heard(message));
        worker.on('error', () => void this.fail());
        worker.on('exit', () => void this.fail());
        this.workers.push(worker);
      } catch {
        void this.fail();
        return undefined;
      }
    }
    return this.workers[this.turn++ % Math.max(1, this.workers.length)];
  }

  private heard(message: HelperMessage): void {
    const waiter = this.waiting.get(message.id);
    if (!waiter) return;
    if (message.type === 'part') waiter.batch.took(message.contents, message.index, message.hashes, waiter.ahead);
    else if (message.type === 'chunk') waiter.batch.chunkDone(message.chunk);
    else {
      waiter.done();
      this.waiting.delete(message.id);
      if (this.waiting.size === 0) for (const worker of this.workers) worker.unref();
    }
  }

  /**
   * A helper failed (or all are stopped): stop using helpers, and once every one has stopped (none
   * may still be writing a chunk the main thread is about to redo), release everyone waiting for one.
   */
  private async fail(): Promise<void> {
    if (this.failed) return;
    this.failed = true;
    const stopping = this.workers.map((worker) => worker.terminate().catch(() => undefined));
    this.workers.length = 0;
    await Promise.all(stopping);
    for (const { done } of this.waiting.values()) done();
    this.waiting.clear();
  }
}

const sharedHelpers = new ScanHelpers();

/** Ends the helper threads of checkpoint scans (for a host shutting down); later scans run on the main thread. */
export function stopScanHelpers(): Promise<void> {
  return sharedHelpers.stop();
}
