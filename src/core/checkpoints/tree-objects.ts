import { decodeListing, ListingWriter, type TreeRow } from './listing-codec.js';
import type { ObjectStore } from './object-store.js';

export type { TreeRow } from './listing-codec.js';

/** How a file is kept: a regular file, an executable one, or a symbolic link (its target is the content). */
export type FileMode = 'file' | 'exec' | 'link';

/** One file of a snapshot. */
export interface FileEntry {
  readonly hash: string;
  readonly mode: FileMode;
  readonly size: number;
}

/** Every file of a snapshot by root-relative path ('/'-separated). */
export type Manifest = ReadonlyMap<string, FileEntry>;

const KIND: Record<FileMode, TreeRow[1]> = { file: 'f', exec: 'x', link: 'l' };
/** The file mode of a listing row's kind. */
export const MODE: Record<Exclude<TreeRow[1], 'd' | 's'>, FileMode> = { f: 'file', x: 'exec', l: 'link' };

/** The rows of one listing object. */
export function readListing(store: ObjectStore, hash: string): TreeRow[] {
  return decodeListing(store.get(hash));
}

/**
 * Stores one folder's listing object and returns its hash: its files, and its subfolders by their
 * own listing's hash; `replaces` is the folder's previous listing, if any. A snapshot is one listing per folder, like git's trees, and its root
 * listing's hash names it; a snapshot after a few changes writes only the listings on the changed
 * files' paths, the rest are already stored.
 */
export function writeListing(
  store: ObjectStore,
  files: ReadonlyMap<string, FileEntry>,
  folders: ReadonlyMap<string, string>,
  notKept: Iterable<string> = [],
  replaces?: string,
): string {
  const names: string[] = [];
  for (const name of files.keys()) names.push(name);
  for (const name of folders.keys()) names.push(name);
  for (const name of notKept) names.push(name);
  names.sort(); // by UTF-16 code units, as the stat cache expects
  const listing = new ListingWriter(names.length);
  for (const name of names) {
    const entry = files.get(name);
    const folder = entry ? undefined : folders.get(name);
    if (entry) listing.row(name, KIND[entry.mode], entry.hash, entry.size);
    else if (folder !== undefined) listing.row(name, 'd', folder, 0);
    else listing.row(name, 's', '', 0);
  }
  // The listing it replaces is nearly the same: stored as a delta of it.
  return store.put(listing.bytes(), replaces);
}

/**
 * The manifest a root listing names (every file below it, by root-relative path); the files the
 * snapshot saw but did not keep go to `notKept` when given.
 */
export function readTrees(store: ObjectStore, root: string, notKept?: Set<string>): Map<string, FileEntry> {
  const manifest = new Map<string, FileEntry>();
  const stack: Array<[prefix: string, hash: string]> = [['', root]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [prefix, hash] = next;
    for (const [name, kind, child, size] of readListing(store, hash)) {
      const path = prefix + name;
      if (kind === 'd') stack.push([`${path}/`, child]);
      else if (kind === 's') notKept?.add(path);
      else manifest.set(path, { hash: child, mode: MODE[kind], size });
    }
  }
  return manifest;
}

/** Every object a snapshot uses: its listings and its files' contents. */
export function reachableObjects(store: ObjectStore, root: string, into: Set<string>): void {
  const stack = [root];
  for (let hash = stack.pop(); hash !== undefined; hash = stack.pop()) {
    if (into.has(hash)) continue;
    into.add(hash);
    for (const [, kind, child] of readListing(store, hash)) {
      if (kind === 'd') stack.push(child);
      else if (kind !== 's') into.add(child);
    }
  }
}
