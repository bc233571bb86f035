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
const KEY = KEY_BYTES;
const ROW = OBJECT_ROW;

/** blockOf of an object still in the open block. */
const OPEN = -1;

/**
 * Writes a pack (its format is described in pack-file.ts) as objects come: each block is deflated
 * as soon as it is full, so a checkpoint that stores 50,000 files deflates them while it still
 * reads and lists, and only the last block and the index are left for `encode`. It is also where
 * the objects not written yet are looked up (`find`, `contentOf`): by their hash bytes in a table
 * of typed arrays, not a Map of hex strings, which a first checkpoint asked 50,000 times.
 */
export class PackWriter {
  private readonly parts: Buffer[] = [Buffer.concat([MAGIC, Buffer.from([VERSION])])];
  private at = HEADER_BYTES;
  private readonly blocks: PackBlock[] = [];
  /** Each block's content as it was deflated, kept so that the objects in it can be read until the pack is written. */
  private readonly raw: Buffer[] = [];
  private readonly bases: string[] = [];
  // The index's columns by object, in the order added; the hashes as bytes, HASH_BYTES each.
  private hashes = Buffer.allocUnsafe(1024 * HASH_BYTES);
  private added = 0;
  private readonly blockOf: number[] = [];
  private readonly offsetOf: number[] = [];
  private readonly lengthOf: number[] = [];
  /** Open addressing by a hash's first four bytes: each slot an object's index, or -1. At most half full. */
  private table = new Int32Array(2048).fill(-1);
  /** The bytes of the hash `find` was last asked for (`put` asks, then adds the same hash). */
  private readonly wanted = Buffer.alloc(HASH_BYTES);
  private wantedHash = '';
  // Small objects are copied into the open block as they come (a delta between them is a block of
  // its own, written first); one bigger than a block is deflated alone.
  private block = Buffer.allocUnsafe(BLOCK);
  private filled = 0;
  private members: number[] = [];
  /** Bytes of the objects' content (not deflated). */
  contentBytes = 0;

  /** Objects added so far. */
  get count(): number {
    return this.added;
  }

  /** The index of the object of this hash (hex), or -1 when it was not added (or is not a hash). */
  find(hash: string): number {
    const wanted = this.wanted;
    this.wantedHash = '';
    if (hash.length !== HASH_BYTES * 2 || wanted.write(hash, 0, HASH_BYTES, 'hex') !== HASH_BYTES) return -1;
    this.wantedHash = hash;
    const mask = this.table.length - 1;
    for (let slot = wanted.readUInt32LE(0) & mask; ; slot = (slot + 1) & mask) {
      const i = this.table[slot] as number;
      if (i === -1) return -1;
      if (this.holds(i, wanted)) return i;
    }
  }

  /** Whether object `i`'s hash is these bytes; byte by byte in JavaScript, as two random hashes differ in their first. */
  private holds(i: number, hash: Buffer): boolean {
    const hashes = this.hashes;
    const at = i * HASH_BYTES;
    for (let b = 0; b < HASH_BYTES; b++) if (hashes[at + b] !== hash[b]) return false;
    return true;
  }

  /** An added object's content. */
  contentOf(i: number): Buffer {
    const block = this.blockOf[i] as number;
    const offset = this.offsetOf[i] as number;
    const content = block === OPEN ? this.block : (this.raw[block] as Buffer);
    return content.subarray(offset, offset + (this.lengthOf[i] as number));
  }

  /** The object an added one is a delta of, with its depth as a delta (0: stored whole). */
  deltaOf(i: number): { readonly base: string | undefined; readonly depth: number } {
    const block = this.blockOf[i] as number;
    return block === OPEN ? { base: undefined, depth: 0 } : (this.blocks[block] as PackBlock);
  }

  /** The first KEY_BYTES of an added object's hash, in hex. */
  keyAt(i: number): string {
    return this.hashes.toString('hex', i * HASH_BYTES, i * HASH_BYTES + KEY);
  }

  /**
   * Adds a block deflated elsewhere (a helper thread's, made by the same rule as `add` makes
   * them): objects not added before, whose contents are `contents` one after another.
   */
  addBlock(hashes: readonly string[], lengths: readonly number[], contents: Buffer, deflated: Buffer): void {
    const block = this.blocks.length;
    for (let k = 0, offset = 0; k < hashes.length; k++) {
      this.register(hashes[k] as string);
      const length = lengths[k] as number;
      this.blockOf.push(block);
      this.offsetOf.push(offset);
      this.lengthOf.push(length);
      offset += length;
    }
    this.contentBytes += contents.length;
    this.raw.push(contents);
    this.blocks.push({ offset: this.at, deflated: deflated.length, length: contents.length, base: undefined, depth: 0 });
    this.parts.push(deflated);
    this.at += deflated.length;
  }

  /** Adds an object not added before: whole, or as a delta of its base when the base is shallow enough; returns its index. */
  add(object: PackInput): number {
    const i = this.register(object.hash);
    const bytes = object.bytes;
    this.contentBytes += bytes.length;
    this.lengthOf.push(bytes.length);
    this.offsetOf.push(0);
    if (object.base && object.base.depth < DEEPEST) {
      this.blockOf.push(this.blocks.length);
      this.bases.push(object.base.hash);
      this.emit(bytes, object.base.hash, object.base.depth + 1, dictionaryOf(object.base.bytes));
      return i;
    }
    this.blockOf.push(OPEN); // set when its block is written
    if (this.filled > 0 && this.filled + bytes.length > BLOCK) this.closeBlock();
    if (bytes.length > BLOCK) {
      this.blockOf[i] = this.blocks.length;
      this.emit(bytes, undefined, 0);
      return i;
    }
    this.members.push(i);
    this.offsetOf[i] = this.filled;
    bytes.copy(this.block, this.filled);
    this.filled += bytes.length;
    return i;
  }

  /** The next object's index, its hash's bytes written and placed in the lookup table. */
  private register(hash: string): number {
    const i = this.added;
    if (this.hashes.length < (i + 1) * HASH_BYTES) {
      const bigger = Buffer.allocUnsafe(this.hashes.length * 2);
      this.hashes.copy(bigger, 0, 0, i * HASH_BYTES);
      this.hashes = bigger;
    }
    if (hash === this.wantedHash) {
      for (let b = 0; b < HASH_BYTES; b++) this.hashes[i * HASH_BYTES + b] = this.wanted[b] as number;
    } else if (hash.length !== HASH_BYTES * 2 || this.hashes.write(hash, i * HASH_BYTES, HASH_BYTES, 'hex') !== HASH_BYTES) {
      // Buffer's write stops at the first character that is not a hex digit.
      throw new Error(`not a content hash: ${hash}`);
    }
    this.added++;
    this.place(i);
    return i;
  }

  /** Puts object `i` in the lookup table, doubling it first when it would be more than half full. */
  private place(i: number): void {
    if (this.added * 2 > this.table.length) {
      this.table = new Int32Array(this.table.length * 2).fill(-1);
      for (let j = 0; j < i; j++) this.insert(j);
    }
    this.insert(i);
  }

  private insert(i: number): void {
    const mask = this.table.length - 1;
    let slot = this.hashes.readUInt32LE(i * HASH_BYTES) & mask;
    while (this.table[slot] !== -1) slot = (slot + 1) & mask;
    this.table[slot] = i;
  }

  /** The pack's bytes with every object added so far (more may still be added, for a later pack of them all). */
  bytes(): Buffer {
    return this.encode().bytes;
  }

  /** The pack's bytes, and its index as a reader takes it (so the pack just written need not be read back). */
  encode(): { bytes: Buffer; trailer: Buffer } {
    this.closeBlock();
    const count = this.added;
    const hashes = this.hashes.subarray(0, count * HASH_BYTES);
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
      for (let word = 0; word < KEY; word += 4) rows.setUint32(t + word, hashWords.getUint32(i * HASH_BYTES + word));
      rows.setUint32(t + KEY, this.blockOf[i] as number, true);
      rows.setUint32(t + KEY + 4, this.offsetOf[i] as number, true);
      rows.setUint32(t + KEY + 8, this.lengthOf[i] as number, true);
      t += ROW;
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
    return { bytes: Buffer.concat([...this.parts, packedTrailer, footer]), trailer };
  }

  private emit(content: Buffer, base: string | undefined, depth: number, dictionary?: Buffer): void {
    // Blocks of new content at zlib's fastest level (a first checkpoint deflates the whole workspace;
    // level 6 would take twice as long for 2% less); deltas are small, so at the default.
    const deflated = deflateSync(content, dictionary ? { dictionary } : { level: 1 });
    this.raw.push(content);
    this.blocks.push({ offset: this.at, deflated: deflated.length, length: content.length, base, depth });
    this.parts.push(deflated);
    this.at += deflated.length;
  }

  private closeBlock(): void {
    // A block of empty objects only is a block too: its members need a place.
    if (this.members.length === 0) return;
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
