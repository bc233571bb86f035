import type { FileMode } from './tree-objects.js';
import type { CachedEntry, FolderState, StatStamp } from './folder-state.js';

/**
 * The stat cache file, version 2: one row per folder with its listing's hash, its files' entries
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

/**
 * The JSON of each folder's file rows, by the map they came from. A scan hands an unchanged folder
 * its previous map, so rewriting the cache of a big workspace re-encodes only the changed folders.
 */
const encodedFiles = new WeakMap<ReadonlyMap<string, CachedEntry>, string>();

/** The stat cache file's text for a scan's root state and the root listing's hash. */
export function encodeStatCache(root: string, state: FolderState): string {
  const folders: string[] = [];
  const stack: Array<[FolderState, string]> = [[state, '']];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [folder, rel] = next;
    let files = encodedFiles.get(folder.files);
    if (files === undefined) {
      const rows: FileRow[] = [];
      for (const [name, e] of folder.files) rows.push([name, e.hash, e.mode, e.size, e.stamp.size, e.stamp.mtimeMs, e.stamp.ino]);
      files = JSON.stringify(rows);
      encodedFiles.set(folder.files, files);
    }
    const skipped: SkippedRow[] = [];
    for (const [name, s] of folder.skipped) skipped.push([name, s.size, s.mtimeMs, s.ino]);
    folders.push(`[${JSON.stringify(rel)},${JSON.stringify(folder.tree ?? null)},${files},${JSON.stringify(skipped)}]`);
    for (const [name, child] of folder.folders) stack.push([child, rel === '' ? name : `${rel}/${name}`]);
  }
  return `{"version":3,"root":${JSON.stringify(root)},"folders":[${folders.join(',')}]}`;
}

/** The root listing's hash and root state a stat cache file holds; throws when the text is damaged. */
export function decodeStatCache(text: string): { root: string; state: FolderState } {
  const file = JSON.parse(text) as StatCacheV2 | StatCacheV1;
  if (typeof file.root !== 'string') throw new Error('stat cache without a root');
  return { root: file.root, state: 'version' in file ? fromV2(file, file.version === 3) : fromV1(file) };
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
