import { constants as zlibConstants, deflateSync } from 'node:zlib';
import {
  BLOCK_BYTES,
  BLOCK_ROW,
  dictionaryOf,
  FOOTER_BYTES,
  HEADER_BYTES,
  KEY_BYTES,
  MAGIC,
  MAX_DELTA_DEPTH,
  OBJECT_ROW,
  type PackBlock,
  type PackInput,
  VERSION,
} from './pack-file.js';

/** Bytes of a whole hash. */
const HASH_BYTES = 32;
// Read once: `add` runs for every object, and an imported binding is a getter call wherever the
// sources run through a CommonJS transform (the tests and benchmarks do).
const BLOCK = BLOCK_BYTES;
const DEEPEST = MAX_DELTA_DEPTH;

/**
 * Writes a pack (its format is described in pack-file.ts) as objects come: each block is deflated
 * as soon as it is full, so a checkpoint that stores 50,000 files deflates them while it still
 * reads and lists, and only the last block and the index are left for `bytes`. Each hash is
 * added once (the object store sees to it).
 */
export class PackWriter {
  private readonly parts: Buffer[] = [Buffer.concat([MAGIC, Buffer.from([VERSION])])];
  private at = HEADER_BYTES;
  private readonly blocks: PackBlock[] = [];
  private readonly bases: string[] = [];
  // The index's columns by object, in the order added.
  private readonly hashes: string[] = [];
  private readonly blockOf: number[] = [];
  private readonly offsetOf: number[] = [];
  private readonly lengthOf: number[] = [];
  // Small objects are copied into the open block as they come (a delta between them is a block of
  // its own, written first); one bigger than a block is deflated alone.
  private block = Buffer.allocUnsafe(BLOCK);
  private filled = 0;
  private members: number[] = [];

  /** Objects added so far. */
  get count(): number {
    return this.hashes.length;
  }

  /** Adds an object: whole, or as a delta of its base when the base is shallow enough. */
  add(object: PackInput): void {
    if (object.hash.length !== HASH_BYTES * 2) throw new Error(`not a content hash: ${object.hash}`);
    const i = this.hashes.length;
    const bytes = object.bytes;
    this.hashes.push(object.hash);
    this.lengthOf.push(bytes.length);
    this.offsetOf.push(0);
    if (object.base && object.base.depth < DEEPEST) {
      this.blockOf.push(this.blocks.length);
      this.bases.push(object.base.hash);
      this.emit(bytes, object.base.hash, object.base.depth + 1, dictionaryOf(object.base.bytes));
      return;
    }
    this.blockOf.push(0); // set when its block is written
    if (this.filled > 0 && this.filled + bytes.length > BLOCK) this.closeBlock();
    if (bytes.length > BLOCK) {
      this.blockOf[i] = this.blocks.length;
      this.emit(bytes, undefined, 0);
      return;
    }
    this.members.push(i);
    this.offsetOf[i] = this.filled;
    bytes.copy(this.block, this.filled);
    this.filled += bytes.length;
  }

  /** The pack's bytes with every object added so far (more may still be added, for a later pack of them all). */
  bytes(): Buffer {
    this.closeBlock();
    const count = this.hashes.length;
    const hashes = hashBytesOf(this.hashes);
    const order = keyOrder(hashes);
    const blocks = this.blocks;
    const trailer = Buffer.alloc(12 + count * OBJECT_ROW + blocks.length * BLOCK_ROW + this.bases.length * 32);
    trailer.writeUInt32LE(count, 0);
    trailer.writeUInt32LE(blocks.length, 4);
    trailer.writeUInt32LE(this.bases.length, 8);
    // Through DataViews: this loop runs once a pack, mostly before the JIT has optimized it, where
    // Buffer's writers cost several times as much.
    const rows = new DataView(trailer.buffer, trailer.byteOffset, trailer.length);
    const hashWords = new DataView(hashes.buffer, hashes.byteOffset, hashes.length);
    let t = 12;
    for (let r = 0; r < count; r++) {
      const i = order[r] as number;
      for (let word = 0; word < KEY_BYTES; word += 4) rows.setUint32(t + word, hashWords.getUint32(i * HASH_BYTES + word));
      rows.setUint32(t + KEY_BYTES, this.blockOf[i] as number, true);
      rows.setUint32(t + KEY_BYTES + 4, this.offsetOf[i] as number, true);
      rows.setUint32(t + KEY_BYTES + 8, this.lengthOf[i] as number, true);
      t += OBJECT_ROW;
    }
    let slot = 0;
    for (const block of blocks) {
      trailer.writeUInt32LE(block.offset, t);
      trailer.writeUInt32LE(block.deflated, t + 4);
      trailer.writeUInt32LE(block.length, t + 8);
      trailer.writeInt32LE(block.base === undefined ? -1 : slot++, t + 12);
      trailer.writeUInt32LE(block.depth, t + 16);
      t += BLOCK_ROW;
    }
    for (const base of this.bases) {
      trailer.write(base, t, 32, 'hex');
      t += 32;
    }
    // Mostly hashes, which nothing compresses: run lengths and Huffman codes only (for the zeros of
    // the numbers) take a third of the time level 1 takes on random bytes, for 4% more index.
    const packedTrailer = deflateSync(trailer, { level: 1, strategy: zlibConstants.Z_RLE });
    const footer = Buffer.alloc(FOOTER_BYTES);
    footer.writeUInt32LE(this.at, 0);
    footer.writeUInt32LE(packedTrailer.length, 4);
    MAGIC.copy(footer, 8);
    return Buffer.concat([...this.parts, packedTrailer, footer]);
  }

  private emit(content: Buffer, base: string | undefined, depth: number, dictionary?: Buffer): void {
    // Blocks of new content at zlib's fastest level (a first checkpoint deflates the whole workspace;
    // level 6 would take twice as long for 2% less); deltas are small, so at the default.
    const deflated = deflateSync(content, dictionary ? { dictionary } : { level: 1 });
    this.blocks.push({ offset: this.at, deflated: deflated.length, length: content.length, base, depth });
    this.parts.push(deflated);
    this.at += deflated.length;
  }

  private closeBlock(): void {
    if (this.filled === 0) return;
    for (const i of this.members) this.blockOf[i] = this.blocks.length;
    this.emit(this.block.subarray(0, this.filled), undefined, 0);
    this.block = Buffer.allocUnsafe(BLOCK);
    this.filled = 0;
    this.members = [];
  }
}

/** The bytes of a pack holding `objects` (each hash once). */
export function encodePack(objects: readonly PackInput[]): Buffer {
  const writer = new PackWriter();
  for (const object of objects) writer.add(object);
  return writer.bytes();
}

/** The hashes (hex) as bytes, HASH_BYTES each: decoded in one native call, not one an object. */
function hashBytesOf(hex: readonly string[]): Buffer {
  const bytes = Buffer.from(hex.join(''), 'hex');
  // Buffer.from stops at the first character that is not a hex digit.
  if (bytes.length !== hex.length * HASH_BYTES) throw new Error('not a content hash among the objects of a pack');
  return bytes;
}

/** A bucket of more objects than this is sorted by Array's sort instead of insertion (random hashes make it rare). */
const INSERTION_SORT_MAX = 32;

/**
 * The indices of the objects whose hashes `hashes` holds (HASH_BYTES each), in the order of their
 * hashes, as the index's binary search needs them. Hashes are uniformly random, so a counting sort
 * on their first bits leaves buckets of about one object each, then sorted in place: sorting tens
 * of thousands of rows by comparison took a tenth of a first checkpoint.
 */
function keyOrder(hashes: Buffer): Uint32Array {
  const count = hashes.length / HASH_BYTES;
  const bits = Math.min(16, Math.max(1, Math.ceil(Math.log2(count + 1))));
  const buckets = new Uint32Array(count);
  for (let i = 0; i < count; i++) buckets[i] = (((hashes[i * HASH_BYTES] as number) << 8) | (hashes[i * HASH_BYTES + 1] as number)) >> (16 - bits);
  const starts = new Uint32Array((1 << bits) + 1);
  for (let i = 0; i < count; i++) starts[(buckets[i] as number) + 1] = (starts[(buckets[i] as number) + 1] as number) + 1;
  for (let b = 1; b < starts.length; b++) starts[b] = (starts[b] as number) + (starts[b - 1] as number);
  const next = starts.slice(0, -1);
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const b = buckets[i] as number;
    order[next[b] as number] = i;
    next[b] = (next[b] as number) + 1;
  }
  // By the whole hash (its first KEY_BYTES are the key, the rest breaks a tie); negative when x's
  // comes first. Byte by byte here: Buffer's compare is a native call that costs more than the bytes.
  const compare = (x: number, y: number): number => {
    for (let b = 0; b < HASH_BYTES; b++) {
      const difference = (hashes[x * HASH_BYTES + b] as number) - (hashes[y * HASH_BYTES + b] as number);
      if (difference !== 0) return difference;
    }
    return 0;
  };
  for (let b = 0; b < 1 << bits; b++) {
    const from = starts[b] as number;
    const to = starts[b + 1] as number;
    if (to - from < 2) continue;
    if (to - from > INSERTION_SORT_MAX) {
      order.set(Array.from(order.subarray(from, to)).sort(compare), from);
      continue;
    }
    for (let x = from + 1; x < to; x++) {
      const value = order[x] as number;
      let y = x;
      for (; y > from && compare(order[y - 1] as number, value) > 0; y--) order[y] = order[y - 1] as number;
      order[y] = value;
    }
  }
  return order;
}
