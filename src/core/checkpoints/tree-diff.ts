import type { ObjectStore } from './object-store.js';
import { type FileEntry, MODE, readListing, type TreeRow } from './tree-objects.js';

/** One path that differs between two snapshots: its entry in each (absent where it has none). */
export interface TreeChange {
  readonly path: string;
  readonly before: FileEntry | undefined;
  readonly after: FileEntry | undefined;
}

/** A folder's rows by name, as one listing object holds them. */
type Rows = ReadonlyMap<string, TreeRow>;

/**
 * Reads snapshots by their listings, each listing parsed once. Two snapshots are compared folder
 * by folder and a folder whose listing hash is the same on both sides is not opened, so comparing
 * snapshots that differ in a few files reads only the listings on those files' paths, not every
 * file list (a checkpoint of 50,000 files has about 2,000 listings).
 */
export class TreeReader {
  private readonly listings = new Map<string, Rows>();

  constructor(private readonly store: ObjectStore) {}

  /** The files that differ (in content or mode, added or removed) between snapshots `a` and `b`, sorted by path; `notKept` collects the rows of `b` that name a file it saw but did not keep, in the folders that differ. */
  diff(a: string, b: string, notKept?: Set<string>): TreeChange[] {
    const changes: TreeChange[] = [];
    const stack: Array<[prefix: string, a: string | undefined, b: string | undefined]> = [['', a, b]];
    for (let next = stack.pop(); next; next = stack.pop()) {
      const [prefix, left, right] = next;
      if (left === right) continue;
      const before = left === undefined ? EMPTY : this.rows(left);
      const after = right === undefined ? EMPTY : this.rows(right);
      for (const [name, row] of after) {
        const path = prefix + name;
        const old = before.get(name);
        if (row[1] === 's') notKept?.add(path);
        if (row[1] === 'd') {
          stack.push([`${path}/`, old?.[1] === 'd' ? old[2] : undefined, row[2]]);
          if (old && isFile(old)) changes.push({ path, before: entryOf(old), after: undefined });
          continue;
        }
        if (old?.[1] === 'd') stack.push([`${path}/`, old[2], undefined]);
        const was = old && isFile(old) ? entryOf(old) : undefined;
        const now = isFile(row) ? entryOf(row) : undefined;
        if (was?.hash !== now?.hash || was?.mode !== now?.mode) changes.push({ path, before: was, after: now });
      }
      for (const [name, old] of before) {
        if (after.has(name)) continue;
        const path = prefix + name;
        if (old[1] === 'd') stack.push([`${path}/`, old[2], undefined]);
        else if (isFile(old)) changes.push({ path, before: entryOf(old), after: undefined });
      }
    }
    return changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  }

  /** The file at `path` in snapshot `root`, undefined when it has none there. */
  entryAt(root: string, path: string): FileEntry | undefined {
    const parts = path.split('/');
    let hash = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const row = this.rows(hash).get(parts[i] as string);
      if (row?.[1] !== 'd') return undefined;
      hash = row[2];
    }
    const row = this.rows(hash).get(parts.at(-1) as string);
    return row && isFile(row) ? entryOf(row) : undefined;
  }

  private rows(hash: string): Rows {
    let rows = this.listings.get(hash);
    if (!rows) {
      rows = new Map(readListing(this.store, hash).map((row) => [row[0], row]));
      this.listings.set(hash, rows);
    }
    return rows;
  }
}

const EMPTY: Rows = new Map();

function isFile(row: TreeRow): boolean {
  return row[1] === 'f' || row[1] === 'x' || row[1] === 'l';
}

function entryOf(row: TreeRow): FileEntry {
  return { hash: row[2], mode: MODE[row[1] as 'f' | 'x' | 'l'], size: row[3] };
}
