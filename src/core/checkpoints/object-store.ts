// Buffer imported, not the global: the global is a getter, and `put` runs for every file a first checkpoint reads.
import { Buffer } from 'node:buffer';
import * as crypto from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sha256HexOf } from './scan-chunk.js';
import { KEY_BYTES, MAX_DELTA_DEPTH, type PackInput, type PackedObject, PackReader } from './pack-file.js';
import { LooseObjects } from './loose-objects.js';
import { PackWriter } from './pack-writer.js';

const sha256Hex = sha256HexOf(crypto);

/** The content hash that names an object: sha-256 of its uncompressed bytes, in hex. */
export function contentHash(bytes: Uint8Array): string {
  return sha256Hex(bytes);
}

/** New objects are written as a pack once this much content waits (and at the end of every snapshot). */
const FLUSH_BYTES = 32 * 1024 * 1024;
/** Inflated blocks kept, so reading the objects of one block inflates it once. */
const CACHED_BLOCKS = 32;
/** Packs under this size are merged into one once there are more than SMALL_PACKS of them. */
const SMALL_PACK_BYTES = 1024 * 1024;
const SMALL_PACKS = 16;

/**
 * Content-addressed objects (file contents and folder listings) named by the SHA-256 of their
 * content, stored once however often they are checkpointed. New objects go into a pack as they
 * come (see pack-writer.ts: zlib-deflated blocks, deflated as they fill; listings as deltas of the
 * ones they replace), kept in memory too until `flush` writes the pack to a temporary name renamed
 * into place, so a crash leaves the whole pack or none. Objects an earlier Smith wrote one file
 * each are still read, and collected, where they are (loose-objects.ts).
 */
export class ObjectStore {
  private readonly packsDir: string;
  private packs: PackReader[] = [];
  /** The pack the objects not written yet are going into, and where they are looked up. */
  private writer = new PackWriter();
  private readonly blocks = new Map<string, Buffer>();
  /** Hashes found in a pack (a snapshot asks again for every unchanged listing). */
  private readonly present = new Set<string>();
  /** Objects an earlier Smith wrote one file each, in `dir`. */
  private readonly loose: LooseObjects;

  constructor(readonly dir: string) {
    this.packsDir = join(dirname(dir), 'packs');
    this.loose = new LooseObjects(dir);
    this.refresh();
  }

  /** Looks at the packs on disk again: others may have written or collected some since. */
  refresh(): void {
    let names: string[] = [];
    try {
      names = readdirSync(this.packsDir).filter((name) => name.endsWith('.pack'));
    } catch {
      // no packs yet
    }
    const present = new Set(names.map((name) => join(this.packsDir, name)));
    const kept = this.packs.filter((pack) => present.has(pack.file));
    const known = new Set(kept.map((pack) => pack.file));
    for (const file of present) {
      if (known.has(file)) continue;
      try {
        kept.push(PackReader.open(file));
      } catch {
        // Damaged from outside (never by a crash: packs are renamed into place whole). Its objects
        // are missing; a restore that needs one says so.
      }
    }
    if (kept.length < this.packs.length) this.present.clear(); // some were collected
    this.packs = kept;
    this.loose.refresh();
  }

  /** Stores `bytes` (if not already stored) and returns their hash; `base` names an object it resembles (the listing it replaces). */
  put(bytes: Uint8Array, base?: string): string {
    return this.putHashed(contentHash(bytes), bytes, base);
  }

  /** put for content whose hash was just computed from these very bytes (on a helper thread). */
  putHashed(hash: string, bytes: Uint8Array, base?: string): string {
    if (this.has(hash)) return hash;
    this.stage(hash, Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes), base);
    if (this.writer.contentBytes >= FLUSH_BYTES) this.flush();
    return hash;
  }

  /**
   * Stores files a helper thread read and deflated as one pack block. The block is kept as it is
   * when every one of them is new and they are all different; otherwise each is put on its own,
   * so no content is stored twice (a branch switched back, two copies of a file).
   */
  putBlock(hashes: readonly string[], lengths: readonly number[], contents: Buffer, deflated: Buffer): void {
    const seen = hashes.length > 1 ? new Set<string>() : undefined;
    let whole = true;
    for (const hash of hashes) {
      if (this.has(hash) || seen?.has(hash)) {
        whole = false;
        break;
      }
      seen?.add(hash);
    }
    if (!whole) {
      for (let k = 0, at = 0; k < hashes.length; k++) {
        const length = lengths[k] as number;
        this.putHashed(hashes[k] as string, contents.subarray(at, at + length));
        at += length;
      }
      return;
    }
    this.writer.addBlock(hashes, lengths, contents, deflated);
    if (this.writer.contentBytes >= FLUSH_BYTES) this.flush();
  }

  /** Adds an object that is not stored yet to the pack being written, as a delta of `base` when that is stored. */
  private stage(hash: string, bytes: Buffer, base: string | undefined): void {
    const stored = base !== undefined && base !== '' && base !== hash ? this.baseOf(base) : undefined;
    this.writer.add(stored ? { hash, bytes, base: stored } : { hash, bytes });
  }

  /** Writes the objects put since the last flush as one pack. */
  flush(): void {
    if (this.writer.count === 0) return;
    this.writePack();
    this.mergeSmallPacks();
  }

  private writePack(): void {
    mkdirSync(this.packsDir, { recursive: true });
    const file = join(this.packsDir, `${Date.now().toString(36)}-${crypto.randomBytes(6).toString('hex')}.pack`);
    const temp = `${file}.tmp`;
    // Written whole under a temporary name, then renamed: a crash leaves the pack or none. When
    // writing fails, the objects stay pending for the next flush.
    const { bytes, trailer } = this.writer.encode();
    writeFileSync(temp, bytes);
    renameSync(temp, file);
    this.discardPending();
    this.packs.push(PackReader.written(file, bytes.length, trailer));
  }

  /** Forgets the objects not written yet (written, or given up on). */
  private discardPending(): void {
    this.writer = new PackWriter();
  }

  /**
   * Many small packs (one per checkpoint after a few edits) become one, as git's automatic
   * repacking does: fewer files to search, and less of the disk's block rounding. Every object
   * is kept; the new pack is written before the old ones go. A pack that cannot be read is left
   * as it is.
   */
  private mergeSmallPacks(): void {
    const small = this.packs.filter((pack) => pack.bytes < SMALL_PACK_BYTES);
    if (small.length <= SMALL_PACKS) return;
    try {
      for (const pack of small) {
        for (const [, place] of pack.objects()) {
          const block = pack.blocks[place.block];
          const content = Buffer.from(this.block(pack, place.block).subarray(place.offset, place.offset + place.length));
          const hash = contentHash(content);
          if (this.writer.find(hash) < 0) this.stage(hash, content, block?.base);
        }
      }
    } catch {
      this.discardPending();
      return;
    }
    const merged = new Set(small.map((pack) => pack.file));
    this.packs = this.packs.filter((pack) => !merged.has(pack.file));
    this.writePack();
    for (const file of merged) rmSync(file, { force: true });
    this.blocks.clear();
  }

  /** The bytes of an object; throws a clear error when it is missing or damaged. */
  get(hash: string): Buffer {
    const waiting = this.writer.find(hash);
    if (waiting >= 0) return this.writer.contentOf(waiting);
    const loose = this.loose.get(hash);
    if (loose) return verified(hash, loose, this.dir);
    let found = this.locate(hash);
    if (!found) {
      this.refresh();
      found = this.locate(hash);
    }
    if (!found) throw new Error(`checkpoint object ${hash} is missing from ${this.dir}`);
    let content: Buffer;
    try {
      content = this.block(found[0], found[1].block);
    } catch (error) {
      // Another Smith merged or collected that pack since it was opened: its objects are in a newer one.
      const gone = !existsSync(found[0].file);
      if (gone) this.refresh();
      const again = gone ? this.locate(hash) : undefined;
      if (!again) throw new Error(`checkpoint object ${hash} in ${this.packsDir} is damaged: ${error instanceof Error ? error.message : String(error)}`);
      found = again;
      content = this.block(found[0], found[1].block);
    }
    const place = found[1];
    return verified(hash, content.subarray(place.offset, place.offset + place.length), this.packsDir);
  }

  has(hash: string): boolean {
    // The sets are asked only when they hold something: a first checkpoint asks this of every file.
    if (this.writer.find(hash) >= 0 || (this.present.size > 0 && this.present.has(hash))) return true;
    if (this.locate(hash)) {
      this.present.add(hash);
      return true;
    }
    return this.loose.has(hash);
  }

  /**
   * Bytes on disk of some objects and the objects they are deltas of, each counted once: a single
   * file's size, or an object's share of its pack (its block's deflated bytes in proportion to its
   * content, and an equal share of the pack's index), so the objects of a pack add up to its size.
   */
  storedSize(hashes: Iterable<string>): number {
    const counted = new Set<string>();
    let bytes = 0;
    const stack = [...hashes];
    for (let hash = stack.pop(); hash !== undefined; hash = stack.pop()) {
      if (counted.has(hash)) continue;
      counted.add(hash);
      const found = this.locate(hash);
      if (!found) {
        bytes += this.loose.bytesOf(hash); // 0 when missing: nothing on disk
        continue;
      }
      const [pack, place] = found;
      const block = pack.blocks[place.block];
      if (!block) continue;
      bytes += (block.deflated * place.length) / Math.max(1, block.length) + pack.overhead / Math.max(1, pack.count);
      if (block.base !== undefined) stack.push(block.base);
    }
    return Math.round(bytes);
  }

  /**
   * Deletes objects not in `live` (and temporary files a crash left) last written before
   * `olderThanMs`; returns the bytes freed. A pack that holds such objects (or deltas of them) is
   * written again with its other objects, then removed; a delta of an object that goes is kept whole.
   */
  sweep(live: ReadonlySet<string>, olderThanMs: number): number {
    this.flush();
    this.refresh();
    let freed = this.loose.sweep(live, olderThanMs);
    const liveKeys = new Set([...live].map(keyOf));
    // A pack goes when it holds an object that is not live, or a delta of one.
    const rewrite = this.packs.filter(
      (pack) =>
        (statSync(pack.file, { throwIfNoEntry: false })?.mtimeMs ?? olderThanMs) < olderThanMs &&
        ([...pack.objects()].some(([key]) => !liveKeys.has(key)) || pack.blocks.some((block) => block.base !== undefined && !liveKeys.has(keyOf(block.base)))),
    );
    const removed = new Set(rewrite.map((pack) => pack.file));
    // Deltas in the packs that stay (written lately) need their bases, wherever those are.
    const needed = new Map([...live].map((hash) => [keyOf(hash), hash]));
    for (const pack of this.packs) {
      if (removed.has(pack.file)) continue;
      for (const block of pack.blocks) if (block.base !== undefined) needed.set(keyOf(block.base), block.base);
    }
    const neededHashes = new Set(needed.values());
    for (const pack of rewrite) {
      for (const [key, place] of pack.objects()) {
        const hash = needed.get(key);
        if (hash === undefined || this.writer.find(hash) >= 0) continue;
        const base = pack.blocks[place.block]?.base;
        this.stage(hash, this.get(hash), base !== undefined && neededHashes.has(base) ? base : undefined);
      }
    }
    // The kept objects are written before the old packs go, so a crash in between only leaves copies.
    this.packs = this.packs.filter((pack) => !removed.has(pack.file));
    if (this.writer.count > 0) {
      this.writePack();
      freed -= this.packs.at(-1)?.bytes ?? 0;
    }
    for (const pack of rewrite) {
      freed += pack.bytes;
      rmSync(pack.file, { force: true });
    }
    for (const name of existsSync(this.packsDir) ? readdirSync(this.packsDir) : []) {
      if (!name.endsWith('.tmp')) continue;
      const file = join(this.packsDir, name);
      const stats = statSync(file, { throwIfNoEntry: false });
      if (!stats || stats.mtimeMs >= olderThanMs) continue;
      freed += stats.size;
      rmSync(file, { force: true });
    }
    this.present.clear();
    this.blocks.clear();
    return Math.max(0, freed);
  }

  /** How many objects are stored (each once, wherever it is). */
  count(): number {
    const keys = new Set<string>();
    for (let i = 0; i < this.writer.count; i++) keys.add(this.writer.keyAt(i));
    for (const pack of this.packs) for (const [key] of pack.objects()) keys.add(key);
    for (const hash of this.loose.hashes()) keys.add(keyOf(hash));
    return keys.size;
  }

  /**
   * A stored base's content and delta depth, for writing an object as its delta; undefined when it
   * is not stored. A base at the deepest a delta may be is replaced by its own base, so a listing
   * changed again and again stays a delta (of a version a few changes old) instead of being stored
   * whole once the chain is full.
   */
  private baseOf(hash: string): PackInput['base'] {
    try {
      let base = hash;
      let depth = this.depthOf(base);
      while (depth >= MAX_DELTA_DEPTH) {
        const below = this.baseHashOf(base);
        if (below === undefined) return undefined;
        base = below;
        depth = this.depthOf(base);
      }
      return { hash: base, bytes: this.get(base), depth };
    } catch {
      return undefined;
    }
  }

  /** The object `hash` is stored as a delta of, if any. */
  private baseHashOf(hash: string): string | undefined {
    const waiting = this.writer.find(hash);
    if (waiting >= 0) return this.writer.deltaOf(waiting).base;
    const found = this.locate(hash);
    return found ? found[0].blocks[found[1].block]?.base : undefined;
  }

  private depthOf(hash: string): number {
    const waiting = this.writer.find(hash);
    if (waiting >= 0) return this.writer.deltaOf(waiting).depth;
    const found = this.locate(hash);
    return found ? (found[0].blocks[found[1].block]?.depth ?? 0) : 0;
  }

  private locate(hash: string): [PackReader, PackedObject] | undefined {
    if (this.packs.length === 0 || hash.length !== 64) return undefined;
    const key = Buffer.from(keyOf(hash), 'hex');
    // Newest first: a snapshot's objects are most often asked for right after it.
    for (let i = this.packs.length - 1; i >= 0; i--) {
      const pack = this.packs[i] as PackReader;
      const place = pack.find(key);
      if (place) return [pack, place];
    }
    return undefined;
  }

  /** A pack's block inflated (a delta's base read first), from the cache when it was read lately. */
  private block(pack: PackReader, index: number): Buffer {
    const key = `${pack.file}#${index}`;
    let content = this.blocks.get(key);
    if (content) {
      this.blocks.delete(key); // moved to the newest place
    } else {
      const base = pack.blocks[index]?.base;
      content = pack.inflateBlock(index, base === undefined ? undefined : this.get(base));
      if (this.blocks.size >= CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as string);
    }
    this.blocks.set(key, content);
    return content;
  }
}

/** What a pack's index keeps of a hash. */
function keyOf(hash: string): string {
  return hash.slice(0, KEY_BYTES * 2);
}

function verified(hash: string, bytes: Buffer, dir: string): Buffer {
  if (contentHash(bytes) !== hash) throw new Error(`checkpoint object ${hash} in ${dir} is damaged`);
  return bytes;
}
