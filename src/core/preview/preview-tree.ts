import { type Stats, chmodSync, constants, copyFileSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** What stands at one path of a tree, seen without following links. */
export interface TreeEntry {
  readonly kind: 'file' | 'exec' | 'link' | 'folder' | 'other';
  readonly size: number;
  readonly mode: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** A tree's paths ('/'-separated, relative to its root), never followed through a link. */
export type Tree = Map<string, TreeEntry>;

/** How much a preview copies and reads back. */
export interface TreeLimits {
  /** Paths (files, folders, links) at most. */
  readonly maxEntries: number;
  /** Bytes of regular files at most. */
  readonly maxBytes: number;
}

/** Raised when a tree is larger than the limits allow. */
export class TreeTooLargeError extends Error {}

export function entryOf(stats: Stats): TreeEntry {
  const kind = stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'folder' : stats.isFile() ? (stats.mode & 0o111 ? 'exec' : 'file') : 'other';
  return { kind, size: stats.size, mode: stats.mode & 0o7777, ino: stats.ino, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

/** Every path under `root` (lstat, links not followed), within the limits, skipping the relative paths in `skip`. */
export function readTree(root: string, limits: TreeLimits, skip: ReadonlySet<string> = new Set()): Tree {
  const tree: Tree = new Map();
  let bytes = 0;
  const stack = [''];
  for (let rel = stack.pop(); rel !== undefined; rel = stack.pop()) {
    let names: string[];
    try {
      names = readdirSync(rel === '' ? root : join(root, rel));
    } catch {
      continue;
    }
    for (const name of names) {
      const path = rel === '' ? name : `${rel}/${name}`;
      if (skip.has(path)) continue;
      let stats: Stats;
      try {
        stats = lstatSync(join(root, path));
      } catch {
        continue;
      }
      const entry = entryOf(stats);
      tree.set(path, entry);
      if (tree.size > limits.maxEntries) throw new TreeTooLargeError(`more than ${limits.maxEntries.toLocaleString('en-US')} paths`);
      if (entry.kind === 'file' || entry.kind === 'exec') {
        bytes += entry.size;
        if (bytes > limits.maxBytes) throw new TreeTooLargeError(`more than ${formatBytes(limits.maxBytes)} of files`);
      }
      if (entry.kind === 'folder') stack.push(path);
    }
  }
  return tree;
}

/**
 * Copies a tree into the empty folder `dest`: folders made, files copied into new inodes (a
 * reflink where the file system offers one, never a hard link, so nothing written to the copy
 * reaches the original), links made again with the same target text (never followed), FIFOs,
 * sockets and devices left out. Returns the copy's tree as it stands after copying (its inodes
 * and times, to tell later what the command touched).
 */
export function copyTree(root: string, tree: Tree, dest: string): Tree {
  const copied: Tree = new Map();
  const folders: Array<[string, number]> = [];
  // Sorted, so each folder is made before what it holds.
  for (const path of [...tree.keys()].sort()) {
    const entry = tree.get(path) as TreeEntry;
    const from = join(root, path);
    const to = join(dest, path);
    try {
      if (entry.kind === 'folder') {
        mkdirSync(to, { mode: 0o700 });
        folders.push([path, entry.mode]);
      } else if (entry.kind === 'link') {
        symlinkSync(readlinkSync(from), to);
      } else if (entry.kind === 'file' || entry.kind === 'exec') {
        copyFileSync(from, to, constants.COPYFILE_FICLONE);
        chmodSync(to, entry.mode);
      } else continue;
      copied.set(path, entryOf(lstatSync(to)));
    } catch {
      // Gone or unreadable since it was listed: the copy does not have it.
    }
  }
  // Last, so a read-only folder could still be filled; deepest first is not needed (chmod keeps the way open).
  for (const [path, mode] of folders) {
    try {
      chmodSync(join(dest, path), mode | 0o700);
      copied.set(path, entryOf(lstatSync(join(dest, path))));
    } catch {}
  }
  return copied;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}
