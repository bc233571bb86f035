import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { aheadUnits, type Batch, CHUNK, OPEN_FLAGS } from './scan-batch.js';
import { BLOCK_BYTES } from './pack-file.js';
import { KIND, READ, scanChunk, sha256HexOf } from './scan-chunk.js';

/** Read content a helper sends in one message. */
const PART_BYTES = 1024 * 1024;
/** Read content (in KB) sent but not yet taken by the main thread, beyond which helpers wait: memory stays bounded however big the workspace. */
const AHEAD_KB = 64 * 1024;

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
const { Buffer } = require('node:buffer');
const { deflateSync } = require('node:zlib');
const crypto = require('node:crypto');
const { parentPort, workerData } = require('node:worker_threads');
var __name = (target) => target;
const scanChunk = (${scanChunk.toString()});
const hash = (${sha256HexOf.toString()})(crypto);
const aheadUnits = (${aheadUnits.toString()});
const { kind, read, openFlags, chunk, partBytes, aheadKb, blockBytes } = workerData;
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
    // The contents in pack blocks as the pack writer makes them (up to blockBytes together, a
    // bigger one alone), each deflated here: [items, deflated bytes] per block.
    const blocks = [];
    const deflatedParts = [];
    let at = 0;
    let blockStart = 0;
    let blockItems = 0;
    const seal = () => {
      if (blockItems === 0) return;
      const deflated = deflateSync(joined.subarray(blockStart, at), { level: 1 });
      deflatedParts.push(deflated);
      blocks.push(blockItems, deflated.length);
      blockStart = at;
      blockItems = 0;
    };
    for (let k = 0; k < items.length; k++) {
      const [i, content] = items[k];
      if (blockItems > 0 && (at - blockStart + content.length > blockBytes || content.length > blockBytes)) seal();
      content.copy(joined, at);
      at += content.length;
      blockItems++;
      if (content.length > blockBytes) seal();
      index[2 * k] = i;
      index[2 * k + 1] = content.length;
    }
    seal();
    const deflated = Buffer.concat(deflatedParts);
    const deflatedBuffer = deflated.buffer.slice(deflated.byteOffset, deflated.byteOffset + deflated.length);
    const blockIndex = new Float64Array(blocks);
    parentPort.postMessage(
      { id: batch.id, type: 'part', contents: joined.buffer, index: index.buffer, hashes, deflated: deflatedBuffer, blocks: blockIndex.buffer },
      [joined.buffer, index.buffer, deflatedBuffer, blockIndex.buffer],
    );
    items = [];
    hashes = '';
    bytes = 0;
  };
  const io = {
    lstatSync, openSync, fstatSync, readSync, closeSync, hash, kind, read, openFlags,
    allocate: (size) => Buffer.allocUnsafe(size),
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
  | {
      readonly id: number;
      readonly type: 'part';
      readonly contents: ArrayBuffer;
      readonly index: ArrayBuffer;
      readonly hashes: string;
      readonly deflated: ArrayBuffer;
      readonly blocks: ArrayBuffer;
    }
  | { readonly id: number; readonly type: 'chunk'; readonly chunk: number }
  | { readonly id: number; readonly type: 'end' };

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
          workerData: { kind: KIND, read: READ, openFlags: OPEN_FLAGS, chunk: CHUNK, partBytes: PART_BYTES, aheadKb: AHEAD_KB, blockBytes: BLOCK_BYTES },
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
    if (message.type === 'part') waiter.batch.took(message, waiter.ahead);
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

export const sharedHelpers = new ScanHelpers();

/** Ends the helper threads of checkpoint scans (for a host shutting down); later scans run on the main thread. */
export function stopScanHelpers(): Promise<void> {
  return sharedHelpers.stop();
}
