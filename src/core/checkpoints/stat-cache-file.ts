import { deflateSync, inflateSync } from 'node:zlib';
import type { ObjectStore } from './object-store.js';
import { MODE, readListing, type FileMode } from './tree-objects.js';
import type { CachedEntry, FolderState, StatStamp } from './folder-state.js';

/**
 * The stat cache file, version 4: the snapshot's root listing and, for every file its listings
 * name (kept or not), the stat it was read at: size, mtime and inode, in the listings' order.
 * Names, hashes and modes are in the listings already, so the cache holds only the stats, as
 * columns XOR-ed with the previous value and deflated: about two bytes a file instead of 130.
 */
interface StatCacheV4 {
  readonly version: 4;
  readonly root: string;
  /** base64 of the deflated columns (see encodeStamps). */
  readonly stamps: string;
}

/**
 * The stat cache file, versions 2 and 3 (still read): one row per folder with its listing's hash, its files' entries
 * and stats, and its skipped files' stats; so a reopened store reads no unchanged file and writes
 * no unchanged listing.
 */
interface StatCacheV2 {
  /** 3: listings name the files not kept (too big, unreadable); a version 2 file's listings are written again. */
  readonly version: 2 | 3;
  readonly root: string;
  readonly folders: Array<[rel: string, tree: string | null, files: FileRow[], skipped: SkippedRow[]]>;
}
type FileRow = [name: string, hash: string, mode: FileMode, size: number, statSize: number, mtimeMs: number, ino: number];
type SkippedRow = [name: string, size: number, mtimeMs: number, ino: number];

/** Version 1 (still read, so an upgrade does not cost a full re-read): rows by path, no listings. */
interface StatCacheV1 {
  readonly root: string;
  readonly files: Array<[path: string, hash: string, mode: FileMode, size: number, mtimeMs: number, ino: number]>;
  readonly skipped: Array<[path: string, size: number, mtimeMs: number, ino: number]>;
}

/** The stat cache file's text for a scan's root state and the root listing's hash. */
export function encodeStatCache(root: string, state: FolderState): string {
  const stamps: StatStamp[] = [];
  for (const [folder, names] of inListingOrder(state)) {
    for (const name of names) {
      const stamp = folder.files.get(name)?.stamp ?? folder.skipped.get(name);
      if (stamp) stamps.push(stamp);
    }
  }
  const file: StatCacheV4 = { version: 4, root, stamps: encodeStamps(stamps).toString('base64') };
  return JSON.stringify(file);
}

/**
 * The root listing's hash and root state a stat cache file holds; throws when the text is damaged
 * or names listings that are not in `store` (version 4 reads the listings).
 */
export function decodeStatCache(text: string, store?: ObjectStore): { root: string; state: FolderState } {
  const file = JSON.parse(text) as StatCacheV4 | StatCacheV2 | StatCacheV1;
  if (typeof file.root !== 'string') throw new Error('stat cache without a root');
  if ('version' in file && file.version === 4) {
    if (!store) throw new Error('a version 4 stat cache is read with its store');
    return { root: file.root, state: fromV4(file, store) };
  }
  return { root: file.root, state: 'version' in file ? fromV2(file, file.version === 3) : fromV1(file) };
}

/** The folders a snapshot's listings name, breadth first from the root (the order of the stamps), each with its rows' names. */
function* inListingOrder(root: FolderState): Generator<[FolderState, string[]]> {
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    const folder = queue[i] as FolderState;
    if (folder.tree === undefined) throw new Error('a folder of unknown listing cannot be cached in version 4');
    const names = rowNames(folder);
    yield [folder, names];
    for (const name of names) {
      const child = folder.folders.get(name);
      if (child && child.tree !== '' && !folder.files.has(name) && !folder.skipped.has(name)) queue.push(child);
    }
  }
}

/** The names of a folder's listing rows, in its listing's order (see writeListing: by UTF-16 code units, which is also Array's default sort). */
function rowNames(folder: FolderState): string[] {
  const names: string[] = [];
  for (const name of folder.files.keys()) names.push(name);
  for (const name of folder.skipped.keys()) names.push(name);
  for (const [name, child] of folder.folders) if (child.tree !== '' && child.tree !== undefined) names.push(name);
  return names.sort();
}

/** Three columns (sizes, mtimes, inodes) of doubles, each XOR-ed with the one before so alike values become zeros, deflated. */
function encodeStamps(stamps: readonly StatStamp[]): Buffer {
  const n = stamps.length;
  const values = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const stamp = stamps[i] as StatStamp;
    values[i] = stamp.size;
    values[n + i] = stamp.mtimeMs;
    values[2 * n + i] = stamp.ino;
  }
  const words = new Uint32Array(values.buffer);
  for (let i = words.length - 1; i >= 2; i--) words[i] = (words[i] as number) ^ (words[i - 2] as number);
  // The fastest level: the columns are mostly zeros, which every level packs about as well.
  return deflateSync(Buffer.from(values.buffer), { level: 1 });
}

function decodeStamps(packed: Buffer): Float64Array {
  const bytes = inflateSync(packed);
  if (bytes.length % 24 !== 0) throw new Error('stat cache stamps are damaged');
  const words = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  for (let i = 2; i < words.length; i++) words[i] = (words[i] as number) ^ (words[i - 2] as number);
  return new Float64Array(words.buffer);
}

function fromV4(file: StatCacheV4, store: ObjectStore): FolderState {
  const values = decodeStamps(Buffer.from(file.stamps, 'base64'));
  const n = values.length / 3;
  let next = 0;
  const stamp = (): StatStamp => {
    if (next >= n) throw new Error('stat cache has fewer stamps than its listings have files');
    const at = next++;
    return { size: values[at] as number, mtimeMs: values[n + at] as number, ino: values[2 * n + at] as number };
  };
  const root: Building = { files: new Map(), skipped: new Map(), folders: new Map(), tree: file.root, ignore: undefined };
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    const folder = queue[i] as Building;
    for (const [name, kind, hash, size] of readListing(store, folder.tree as string)) {
      if (kind === 'd') {
        const child: Building = { files: new Map(), skipped: new Map(), folders: new Map(), tree: hash, ignore: undefined };
        folder.folders.set(name, child);
        queue.push(child);
      } else if (kind === 's') folder.skipped.set(name, stamp());
      else folder.files.set(name, { hash, mode: MODE[kind], size, stamp: stamp() });
    }
  }
  if (next !== n) throw new Error('stat cache has more stamps than its listings have files');
  return root;
}

/** A folder being rebuilt; folders a file names but lists nothing for get an unknown listing. */
interface Building {
  files: Map<string, CachedEntry>;
  skipped: Map<string, StatStamp>;
  folders: Map<string, Building>;
  tree: string | undefined;
  ignore: undefined;
}

function tree(): { root: Building; at: (parts: readonly string[]) => Building } {
  const fresh = (): Building => ({ files: new Map(), skipped: new Map(), folders: new Map(), tree: undefined, ignore: undefined });
  const root = fresh();
  const at = (parts: readonly string[]): Building => {
    let folder = root;
    for (const name of parts) {
      let child = folder.folders.get(name);
      if (!child) {
        child = fresh();
        folder.folders.set(name, child);
      }
      folder = child;
    }
    return folder;
  };
  return { root, at };
}

function fromV2(file: StatCacheV2, keepListings: boolean): FolderState {
  const { root, at } = tree();
  for (const [rel, listing, files, skipped] of file.folders) {
    const folder = at(rel === '' ? [] : rel.split('/'));
    folder.tree = keepListings && typeof listing === 'string' ? listing : undefined;
    for (const [name, hash, mode, size, statSize, mtimeMs, ino] of files) folder.files.set(name, { hash, mode, size, stamp: { size: statSize, mtimeMs, ino } });
    for (const [name, size, mtimeMs, ino] of skipped) folder.skipped.set(name, { size, mtimeMs, ino });
  }
  return root;
}

function fromV1(file: StatCacheV1): FolderState {
  const { root, at } = tree();
  const place = (path: string): [Building, string] => {
    const parts = path.split('/');
    return [at(parts.slice(0, -1)), parts.at(-1) ?? ''];
  };
  for (const [path, hash, mode, size, mtimeMs, ino] of file.files) {
    const [folder, name] = place(path);
    folder.files.set(name, { hash, mode, size, stamp: { size, mtimeMs, ino } });
  }
  for (const [path, size, mtimeMs, ino] of file.skipped) {
    const [folder, name] = place(path);
    folder.skipped.set(name, { size, mtimeMs, ino });
  }
  return root;
}
