// Buffer imported, not the global: the global is a getter, and `took` runs for every file read.
import { Buffer } from 'node:buffer';
import * as crypto from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { KIND, PREVIOUS_FIELDS, READ, type ScanIo, type ScanJob, STAT_FIELDS, scanChunk, sha256HexOf } from './scan-chunk.js';

// One batch of a scan: the paths handed to one helper thread at once, the shared arrays their
// stats go to, and the chunks this thread or the helper scanned (see parallel-scan.ts).

/** Paths scanned between two claims of work, and between two yields to the event loop. */
export const CHUNK = 256;
/** Paths handed to the helpers at once; fewer than this in all are scanned on the main thread alone. */
export const HANDOFF = 8 * CHUNK;
const contentHashHex = sha256HexOf(crypto);
/** PREVIOUS_FIELDS, read once: `add` runs for every file, and an imported binding is a getter call under a CommonJS transform. */
const PREVIOUS_ROW = PREVIOUS_FIELDS;
/** O_RDONLY | O_NONBLOCK | O_NOFOLLOW: a FIFO never blocks the open, a link is never followed. */
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** The unit of the read-ahead count: KB, rounded up, at least one per file. */
export function aheadUnits(bytes: number): number {
  return Math.floor(bytes / 1024) + 1;
}

/** How a queue reads content: files up to `maxBytes`, each handed to `take` with its hash (hex) as soon as it is read. */
export interface ScanReading {
  readonly maxBytes: number;
  take(hash: string, content: Buffer): void;
  /**
   * Files a helper read and deflated together as one pack block (see pack-writer.ts): their hashes
   * and lengths, their contents one after another, and the block deflated. Absent: each is taken alone.
   */
  takeBlock?(hashes: readonly string[], lengths: readonly number[], contents: Buffer, deflated: Buffer): void;
}

/** Content a helper read, in pack blocks it deflated (see scan-helpers.ts). */
export interface HelperPart {
  readonly contents: ArrayBuffer;
  /** Per file: its index in the batch, its length. */
  readonly index: ArrayBuffer;
  /** The files' hashes, 64 hex digits each. */
  readonly hashes: string;
  readonly deflated: ArrayBuffer;
  /** Per block: how many of the files, its deflated length. */
  readonly blocks: ArrayBuffer;
}

/** A file's stat when its content was last read (with its kind from KIND), so an unchanged one is not read again. */
export interface PreviousStat {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

/** Up to HANDOFF paths, their shared results, the counter threads claim chunks from, and which chunks are done. */
export class Batch {
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
      allocate: (size) => Buffer.allocUnsafe(size),
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
    const at = i * PREVIOUS_ROW;
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
  took(part: HelperPart, ahead: Int32Array): void {
    const rows = new Float64Array(part.index);
    const blocks = new Float64Array(part.blocks);
    let units = 0;
    let at = 0;
    let deflatedAt = 0;
    for (let b = 0, k = 0; b < blocks.length; b += 2) {
      const members = blocks[b] as number;
      const deflatedLength = blocks[b + 1] as number;
      const hashes: string[] = new Array(members);
      const lengths: number[] = new Array(members);
      const start = at;
      for (let m = 0; m < members; m++, k += 2) {
        const i = rows[k] as number;
        const length = rows[k + 1] as number;
        const hash = part.hashes.slice(k * 32, k * 32 + 64);
        this.hashes[i] = hash;
        hashes[m] = hash;
        lengths[m] = length;
        at += length;
        units += aheadUnits(length);
      }
      if (!this.cancelled) this.handOn(hashes, lengths, Buffer.from(part.contents, start, at - start), Buffer.from(part.deflated, deflatedAt, deflatedLength));
      deflatedAt += deflatedLength;
    }
    Atomics.sub(ahead, 0, units);
    Atomics.notify(ahead, 0);
  }

  private handOn(hashes: readonly string[], lengths: readonly number[], contents: Buffer, deflated: Buffer): void {
    const reading = this.reading;
    if (!reading) return;
    if (reading.takeBlock) {
      reading.takeBlock(hashes, lengths, contents, deflated);
      return;
    }
    for (let m = 0, at = 0; m < hashes.length; m++) {
      const length = lengths[m] as number;
      reading.take(hashes[m] as string, contents.subarray(at, at + length));
      at += length;
    }
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

  /** Every chunk is scanned, and what a helper read of it taken. */
  allDone(): boolean {
    for (let chunk = 0; chunk * CHUNK < this.paths.length; chunk++) if (this.received[chunk] !== 1) return false;
    return true;
  }
}
