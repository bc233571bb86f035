import type { ObjectStore } from './object-store.js';

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

/** A folder listing as stored: [name, 'f'|'x'|'l'|'d', hash, size] sorted by name. */
type TreeRow = [name: string, kind: 'f' | 'x' | 'l' | 'd', hash: string, size: number];

const KIND: Record<FileMode, TreeRow[1]> = { file: 'f', exec: 'x', link: 'l' };
const MODE: Record<Exclude<TreeRow[1], 'd'>, FileMode> = { f: 'file', x: 'exec', l: 'link' };

/**
 * Stores a manifest as one listing object per folder, like git's trees: a snapshot after a few
 * changes writes only the listings on the changed files' paths, the rest are already stored.
 * Returns the root listing's hash, which names the snapshot.
 */
export function writeTrees(store: ObjectStore, manifest: Manifest): string {
  const folders = new Map<string, TreeRow[]>([['', []]]);
  const rowsOf = (folder: string): TreeRow[] => {
    let rows = folders.get(folder);
    if (!rows) {
      rows = [];
      folders.set(folder, rows);
      const cut = folder.lastIndexOf('/');
      rowsOf(cut < 0 ? '' : folder.slice(0, cut)).push([folder.slice(cut + 1), 'd', '', 0]);
    }
    return rows;
  };
  for (const [path, entry] of manifest) {
    const cut = path.lastIndexOf('/');
    rowsOf(cut < 0 ? '' : path.slice(0, cut)).push([path.slice(cut + 1), KIND[entry.mode], entry.hash, entry.size]);
  }
  // Deepest folders first, so each folder's children have their hashes when it is written.
  const order = [...folders.keys()].sort((a, b) => depth(b) - depth(a));
  const hashes = new Map<string, string>();
  for (const folder of order) {
    const rows = folders.get(folder) ?? [];
    for (const row of rows) if (row[1] === 'd') row[2] = hashes.get(folder === '' ? row[0] : `${folder}/${row[0]}`) ?? '';
    rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    hashes.set(folder, store.put(Buffer.from(JSON.stringify(rows))));
  }
  return hashes.get('') ?? store.put(Buffer.from('[]'));
}

/** The manifest a root listing names (the inverse of writeTrees). */
export function readTrees(store: ObjectStore, root: string): Map<string, FileEntry> {
  const manifest = new Map<string, FileEntry>();
  const stack: Array<[prefix: string, hash: string]> = [['', root]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [prefix, hash] = next;
    const rows = JSON.parse(store.get(hash).toString('utf8')) as TreeRow[];
    for (const [name, kind, child, size] of rows) {
      const path = prefix + name;
      if (kind === 'd') stack.push([`${path}/`, child]);
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
    const rows = JSON.parse(store.get(hash).toString('utf8')) as TreeRow[];
    for (const [, kind, child] of rows) {
      if (kind === 'd') stack.push(child);
      else into.add(child);
    }
  }
}

function depth(folder: string): number {
  if (folder === '') return 0;
  let count = 1;
  for (let i = folder.indexOf('/'); i >= 0; i = folder.indexOf('/', i + 1)) count++;
  return count;
}
