import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { constants as zlibConstants, deflateSync, inflateSync } from 'node:zlib';

// A pack holds many objects in one file, as git's packs do, so that a checkpoint of 50,000 files
// is a few files on disk instead of 50,000 (each of which costs a create, a rename and a 4 KB
// block). Objects are zlib-deflated in blocks of up to BLOCK_BYTES of content, so small similar
// files compress together; a folder listing that replaces an earlier one is deflated with that
// earlier listing as zlib's preset dictionary (a delta, as git's packs store trees), so a
// checkpoint after a few edits costs about what changed, not the whole listings on the path.
//
// Layout: "SMPK" 1 | blocks | deflated trailer | trailer offset (u32) | trailer length (u32) | "SMPK".
// Trailer: object count, block count, base count; the objects sorted by hash (the hash's first
// KEY_BYTES, block, offset in the block's content, length); the blocks (offset, deflated length,
// content length, base slot or -1, delta depth); the bases' whole hashes. The index keeps half of
// each hash: a hash is random, so it is the index's main cost, and 128 bits still take 2^64 tries
// to collide; the whole hash is checked against the content whenever an object is read.

const MAGIC = Buffer.from('SMPK');
const VERSION = 1;
const HEADER_BYTES = 5;
const FOOTER_BYTES = 12;
/** Bytes of a hash the index keeps. */
export const KEY_BYTES = 16;
const OBJECT_ROW = KEY_BYTES + 12;
const BLOCK_ROW = 20;
/** Content deflated together in one block; reading one object inflates its block. */
export const BLOCK_BYTES = 64 * 1024;
/** zlib uses at most the last 32 KB of a dictionary. */
const WINDOW = 32 * 1024;
/** Deltas on deltas at most this deep, so reading a listing inflates a bounded chain. */
export const MAX_DELTA_DEPTH = 16;

/** Where an object is in a pack. */
export interface PackedObject {
  readonly block: number;
  readonly offset: number;
  readonly length: number;
}

/** One block's place and what it needs to be inflated. */
export interface PackBlock {
  readonly offset: number;
  readonly deflated: number;
  readonly length: number;
  /** The object whose content is this block's dictionary (a delta), if any. */
  readonly base: string | undefined;
  readonly depth: number;
}

/** An object to write: its hash (hex), its content, and the object it may be stored as a delta of. */
export interface PackInput {
  readonly hash: string;
  readonly bytes: Buffer;
  readonly base?: { readonly hash: string; readonly bytes: Buffer; readonly depth: number };
}

/** The bytes of a pack holding `objects` (each hash once). */
export function encodePack(objects: readonly PackInput[]): Buffer {
  const count = objects.length;
  const parts: Buffer[] = [Buffer.concat([MAGIC, Buffer.from([VERSION])])];
  let at = HEADER_BYTES;
  const blocks: PackBlock[] = [];
  const bases: string[] = [];
  // The index's columns by object, in typed arrays: a first checkpoint has an object a file.
  const hashes = hashBytesOf(objects);
  const blockOf = new Uint32Array(count);
  const offsetOf = new Uint32Array(count);
  const lengthOf = new Uint32Array(count);
  const emit = (content: Buffer, base: string | undefined, depth: number, dictionary?: Buffer) => {
    // Blocks of new content at zlib's fastest level (a first checkpoint deflates the whole workspace;
    // level 6 would take twice as long for 2% less); deltas are small, so at the default.
    const deflated = deflateSync(content, dictionary ? { dictionary } : { level: 1 });
    blocks.push({ offset: at, deflated: deflated.length, length: content.length, base, depth });
    parts.push(deflated);
    at += deflated.length;
  };
  // Small objects are copied into the block's buffer as they come (a delta between them is a block
  // of its own, written first); one bigger than a block is deflated alone.
  let block = Buffer.allocUnsafe(BLOCK_BYTES);
  let filled = 0;
  let members: number[] = [];
  const flushPlain = () => {
    if (filled === 0) return;
    for (const i of members) blockOf[i] = blocks.length;
    emit(block.subarray(0, filled), undefined, 0);
    block = Buffer.allocUnsafe(BLOCK_BYTES);
    filled = 0;
    members = [];
  };
  for (let i = 0; i < count; i++) {
    const object = objects[i] as PackInput;
    const bytes = object.bytes;
    lengthOf[i] = bytes.length;
    if (object.base && object.base.depth < MAX_DELTA_DEPTH) {
      blockOf[i] = blocks.length;
      bases.push(object.base.hash);
      emit(bytes, object.base.hash, object.base.depth + 1, dictionaryOf(object.base.bytes));
      continue;
    }
    if (filled > 0 && filled + bytes.length > BLOCK_BYTES) flushPlain();
    if (bytes.length > BLOCK_BYTES) {
      blockOf[i] = blocks.length;
      emit(bytes, undefined, 0);
      continue;
    }
    members.push(i);
    offsetOf[i] = filled;
    bytes.copy(block, filled);
    filled += bytes.length;
  }
  flushPlain();

  const order = keyOrder(hashes);
  const trailer = Buffer.alloc(12 + count * OBJECT_ROW + blocks.length * BLOCK_ROW + bases.length * 32);
  trailer.writeUInt32LE(count, 0);
  trailer.writeUInt32LE(blocks.length, 4);
  trailer.writeUInt32LE(bases.length, 8);
  // Through DataViews: this loop runs once a pack, mostly before the JIT has optimized it, where
  // Buffer's writers cost several times as much.
  const rows = new DataView(trailer.buffer, trailer.byteOffset, trailer.length);
  const hashWords = new DataView(hashes.buffer, hashes.byteOffset, hashes.length);
  let t = 12;
  for (let r = 0; r < count; r++) {
    const i = order[r] as number;
    for (let word = 0; word < KEY_BYTES; word += 4) rows.setUint32(t + word, hashWords.getUint32(i * HASH_BYTES + word));
    rows.setUint32(t + KEY_BYTES, blockOf[i] as number, true);
    rows.setUint32(t + KEY_BYTES + 4, offsetOf[i] as number, true);
    rows.setUint32(t + KEY_BYTES + 8, lengthOf[i] as number, true);
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
  for (const base of bases) {
    trailer.write(base, t, 32, 'hex');
    t += 32;
  }
  // Mostly hashes, which nothing compresses: run lengths and Huffman codes only (for the zeros of
  // the numbers) take a third of the time level 1 takes on random bytes, for 4% more index.
  const packedTrailer = deflateSync(trailer, { level: 1, strategy: zlibConstants.Z_RLE });
  const footer = Buffer.alloc(FOOTER_BYTES);
  footer.writeUInt32LE(at, 0);
  footer.writeUInt32LE(packedTrailer.length, 4);
  MAGIC.copy(footer, 8);
  parts.push(packedTrailer, footer);
  return Buffer.concat(parts);
}

/** Bytes of a whole hash. */
const HASH_BYTES = 32;

/** The objects' hashes as bytes, HASH_BYTES each: decoded in one native call, not one an object. */
function hashBytesOf(objects: readonly PackInput[]): Buffer {
  const hex: string[] = new Array(objects.length);
  for (let i = 0; i < objects.length; i++) {
    const hash = (objects[i] as PackInput).hash;
    if (hash.length !== HASH_BYTES * 2) throw new Error(`not a content hash: ${hash}`);
    hex[i] = hash;
  }
  const bytes = Buffer.from(hex.join(''), 'hex');
  // Buffer.from stops at the first character that is not a hex digit.
  if (bytes.length !== objects.length * HASH_BYTES) throw new Error('not a content hash among the objects of a pack');
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

function dictionaryOf(bytes: Buffer): Buffer {
  return bytes.length > WINDOW ? bytes.subarray(bytes.length - WINDOW) : bytes;
}

/**
 * One pack on disk, its index read when opened: objects are found by binary search over the
 * sorted hashes, and blocks are read and inflated when an object in them is asked for.
 */
export class PackReader {
  readonly count: number;
  readonly blocks: readonly PackBlock[];
  /** Bytes beyond the blocks (header, index, footer). */
  readonly overhead: number;
  private readonly index: Buffer;

  private constructor(
    readonly file: string,
    readonly bytes: number,
    trailer: Buffer,
  ) {
    this.count = trailer.readUInt32LE(0);
    const blockCount = trailer.readUInt32LE(4);
    const baseCount = trailer.readUInt32LE(8);
    const blocksAt = 12 + this.count * OBJECT_ROW;
    const basesAt = blocksAt + blockCount * BLOCK_ROW;
    if (trailer.length !== basesAt + baseCount * 32) throw new Error(`${file} is not a checkpoint pack (its index is damaged)`);
    this.index = trailer.subarray(12, blocksAt);
    const blocks: PackBlock[] = [];
    for (let i = 0, at = blocksAt; i < blockCount; i++, at += BLOCK_ROW) {
      const slot = trailer.readInt32LE(at + 12);
      blocks.push({
        offset: trailer.readUInt32LE(at),
        deflated: trailer.readUInt32LE(at + 4),
        length: trailer.readUInt32LE(at + 8),
        base: slot < 0 ? undefined : trailer.toString('hex', basesAt + slot * 32, basesAt + slot * 32 + 32),
        depth: trailer.readUInt32LE(at + 16),
      });
    }
    this.blocks = blocks;
    this.overhead = bytes - blocks.reduce((sum, block) => sum + block.deflated, 0);
  }

  /** Opens a pack file; throws a clear error when it is not one or is cut short. */
  static open(file: string): PackReader {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size < HEADER_BYTES + FOOTER_BYTES) throw new Error(`${file} is not a checkpoint pack (too short)`);
      const footer = readAt(fd, size - FOOTER_BYTES, FOOTER_BYTES);
      const header = readAt(fd, 0, HEADER_BYTES);
      if (!footer.subarray(8).equals(MAGIC) || !header.subarray(0, 4).equals(MAGIC) || header[4] !== VERSION)
        throw new Error(`${file} is not a checkpoint pack`);
      const trailerAt = footer.readUInt32LE(0);
      const trailerLength = footer.readUInt32LE(4);
      if (trailerAt + trailerLength + FOOTER_BYTES !== size) throw new Error(`${file} is not a checkpoint pack (its index is misplaced)`);
      return new PackReader(file, size, inflateSync(readAt(fd, trailerAt, trailerLength)));
    } finally {
      closeSync(fd);
    }
  }

  /** The place of the object whose hash starts with `key` (KEY_BYTES), or undefined when this pack does not hold it. */
  find(key: Buffer): PackedObject | undefined {
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = mid * OBJECT_ROW;
      // The index's hash at `mid` against the one looked for.
      const order = this.index.compare(key, 0, KEY_BYTES, at, at + KEY_BYTES);
      if (order === 0) return this.placeAt(at);
      if (order < 0) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }

  /** Every object's key (the first KEY_BYTES of its hash, in hex) and place. */
  *objects(): Generator<[key: string, place: PackedObject]> {
    for (let i = 0, at = 0; i < this.count; i++, at += OBJECT_ROW) yield [this.index.toString('hex', at, at + KEY_BYTES), this.placeAt(at)];
  }

  private placeAt(at: number): PackedObject {
    return {
      block: this.index.readUInt32LE(at + KEY_BYTES),
      offset: this.index.readUInt32LE(at + KEY_BYTES + 4),
      length: this.index.readUInt32LE(at + KEY_BYTES + 8),
    };
  }

  /** Where the object of `key` is in the file: its block's offset and deflated length. */
  blockOf(key: Buffer): PackBlock | undefined {
    const place = this.find(key);
    return place ? this.blocks[place.block] : undefined;
  }

  /** A block's content; `dictionary` is its base object's content when it is a delta. */
  inflateBlock(block: number, dictionary: Buffer | undefined): Buffer {
    const place = this.blocks[block];
    if (!place) throw new Error(`${this.file} has no block ${block}`);
    const fd = openSync(this.file, 'r');
    let deflated: Buffer;
    try {
      deflated = readAt(fd, place.offset, place.deflated);
    } finally {
      closeSync(fd);
    }
    let content: Buffer;
    try {
      content = inflateSync(deflated, dictionary ? { dictionary: dictionaryOf(dictionary) } : {});
    } catch (error) {
      throw new Error(`${this.file}: block ${block} is damaged (${error instanceof Error ? error.message : String(error)})`);
    }
    if (content.length !== place.length) throw new Error(`${this.file}: block ${block} is damaged`);
    return content;
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const n = readSync(fd, buffer, filled, length - filled, position + filled);
    if (n === 0) throw new Error('checkpoint pack cut short');
    filled += n;
  }
  return buffer;
}
