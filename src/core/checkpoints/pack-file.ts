import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

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

export const MAGIC = Buffer.from('SMPK');
export const VERSION = 1;
export const HEADER_BYTES = 5;
export const FOOTER_BYTES = 12;
/** Bytes of a hash the index keeps. */
export const KEY_BYTES = 16;
export const OBJECT_ROW = KEY_BYTES + 12;
export const BLOCK_ROW = 20;
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

/** The part of a base object zlib uses as a delta's dictionary. */
export function dictionaryOf(bytes: Buffer): Buffer {
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

  /** A reader of a pack this process just wrote, from its index as written (see PackWriter.encode). */
  static written(file: string, bytes: number, trailer: Buffer): PackReader {
    return new PackReader(file, bytes, trailer);
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
