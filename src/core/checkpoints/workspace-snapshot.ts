import { type Stats, lstatSync, readlinkSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { listWorkspaceFiles } from '../workspace/file-listing.js';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { readRegularFileSync } from '../workspace/regular-file.js';
import type { ObjectStore } from './object-store.js';
import type { FileEntry, FileMode, Manifest } from './tree-objects.js';

/** What a file looked like when its content was last hashed; equal stats mean the same content. */
export interface StatStamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

/** A file's entry with the stat it was hashed at. */
export interface CachedEntry extends FileEntry {
  readonly stamp: StatStamp;
}

/** A changed file the snapshot could not keep, and why. */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

/** The workspace's tracked files as of one scan. */
export interface Snapshot {
  readonly manifest: Map<string, CachedEntry>;
  /** Files not stored this time that are new or changed since the previous scan. */
  readonly skipped: readonly SkippedFile[];
  /** Every file not stored, with its stat, so an unchanged one is not reported again. */
  readonly skippedStamps: Map<string, StatStamp>;
  /** How many files were read (0: every file was as the previous scan saw it). */
  readonly filesRead: number;
}

/** What to scan. */
export interface SnapshotOptions {
  readonly root: string;
  /** The workspace's .smithignore; .gitignore files and always-skipped folders (.git, node_modules) are honoured too. */
  readonly ignore: IgnorePolicy;
  /** Files larger than this are not stored (and reported as skipped). */
  readonly maxFileBytes: number;
  /** The previous scan: a file whose size, mtime and inode are unchanged is not read again. */
  readonly previous?: Pick<Snapshot, 'manifest' | 'skippedStamps'>;
  readonly signal?: AbortSignal;
}

/** Files handled between two yields to the event loop, so a big scan never stalls streaming. */
const BATCH = 256;

/**
 * Scans the workspace the way list_files sees it and stores the content of every new or changed
 * file. Nothing is written inside the workspace, and folders named .git are never entered: a
 * nested repository's files are kept as ordinary files, its .git is left alone.
 */
export async function takeSnapshot(store: ObjectStore, options: SnapshotOptions): Promise<Snapshot> {
  const { root, previous } = options;
  const listing = await listWorkspaceFiles({ root, dir: root, recursive: true, limit: Number.POSITIVE_INFINITY, ignore: options.ignore });
  // A file changed within the clock's resolution of this scan could change again with the same
  // mtime; such entries are kept with an impossible mtime so the next scan reads them again.
  const scanStartedMs = Date.now();
  const manifest = new Map<string, CachedEntry>();
  const skipped: SkippedFile[] = [];
  const skippedStamps = new Map<string, StatStamp>();
  const skip = (path: string, stats: Stats, stamp: StatStamp, reason: string): void => {
    const before = previous?.skippedStamps.get(path);
    if (!before || !sameStamp(before, stats)) skipped.push({ path, reason });
    skippedStamps.set(path, stamp);
  };
  let filesRead = 0;
  let sinceYield = 0;
  for (const entry of listing.entries) {
    if (++sinceYield === BATCH) {
      sinceYield = 0;
      await yieldToEventLoop();
      options.signal?.throwIfAborted();
    }
    const path = entry.endsWith('/') ? entry.slice(0, -1) : entry;
    const absolute = `${root}/${path}`;
    let stats: Stats;
    try {
      stats = lstatSync(absolute);
    } catch {
      continue; // deleted since it was listed
    }
    const mode = modeOf(stats);
    if (!mode) continue; // folders, FIFOs, sockets, devices
    const stamp: StatStamp = { size: stats.size, mtimeMs: scanStartedMs - stats.mtimeMs < 2000 ? -1 : stats.mtimeMs, ino: stats.ino };
    const known = previous?.manifest.get(path);
    if (known && known.mode === mode && sameStamp(known.stamp, stats)) {
      manifest.set(path, known);
      continue;
    }
    if (stats.size > options.maxFileBytes) {
      skip(path, stats, stamp, `larger than ${formatBytes(options.maxFileBytes)} (${formatBytes(stats.size)})`);
      continue;
    }
    let bytes: Buffer;
    filesRead++;
    try {
      bytes = contentOf(absolute, mode);
    } catch (error) {
      skip(path, stats, stamp, `could not be read: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    manifest.set(path, { hash: store.put(bytes), mode, size: bytes.length, stamp });
  }
  return { manifest, skipped, skippedStamps, filesRead };
}

/** The paths whose content or mode differs between two manifests (added, changed or removed). */
export function changedPaths(before: Manifest, after: Manifest): string[] {
  const changed: string[] = [];
  for (const [path, entry] of after) {
    const old = before.get(path);
    if (!old || old.hash !== entry.hash || old.mode !== entry.mode) changed.push(path);
  }
  for (const path of before.keys()) if (!after.has(path)) changed.push(path);
  return changed.sort();
}

function sameStamp(stamp: StatStamp, stats: Stats): boolean {
  return stamp.size === stats.size && stamp.mtimeMs === stats.mtimeMs && stamp.ino === stats.ino;
}

function modeOf(stats: Stats): FileMode | undefined {
  if (stats.isSymbolicLink()) return 'link';
  if (!stats.isFile()) return undefined;
  return stats.mode & 0o111 ? 'exec' : 'file';
}

/** Synchronous on purpose: one file's read is microseconds, an awaited one a thread-pool round trip each. */
function contentOf(absolute: string, mode: FileMode): Buffer {
  return mode === 'link' ? Buffer.from(readlinkSync(absolute), 'utf8') : readRegularFileSync(absolute);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
