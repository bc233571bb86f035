import { readlinkSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { readRegularFileOfSizeSync } from '../workspace/regular-file.js';
import { type CachedEntry, filesBelow, type FolderState, joinRel, type StatStamp } from './folder-state.js';
import { BATCH, type WalkedFolder, walkFolders } from './folder-walk.js';
import type { ObjectStore } from './object-store.js';
import { AssemblyOrder } from './assembly-order.js';
import { KIND, READ, ScanQueue, type ScanProgress, STAT_FIELDS } from './parallel-scan.js';
import { type FileMode, type Manifest, writeListing } from './tree-objects.js';

export type { CachedEntry, FolderState, StatStamp } from './folder-state.js';

// Read once: the loops below run for every file, and an imported binding read there is a getter
// call wherever the sources run through a CommonJS transform (the tests and benchmarks do).
const FIELDS = STAT_FIELDS;
const YIELD_EVERY = BATCH;
const { missing: MISSING, other: OTHER, link: LINK, exec: EXEC } = KIND;
const READ_DONE = READ.done;

/** A changed file the snapshot could not keep, and why. */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

/** One scan of the workspace. */
export interface Snapshot {
  /** The root listing's hash, which names the snapshot. */
  readonly root: string;
  /** What the scan saw, for the next scan's `previous` and the stat cache. */
  readonly state: FolderState;
  /** Paths added, changed or removed since `previous` (every file when there was none), sorted. */
  readonly changed: string[];
  /** Files not stored this time that are new or changed since the previous scan. */
  readonly skipped: readonly SkippedFile[];
  /** How many files were read (0: every file was as the previous scan saw it). */
  readonly filesRead: number;
  /** False when `state` holds exactly the stats `previous` held, so a stat cache of it is as good as one of `previous`. */
  readonly statsChanged: boolean;
}

/** What to scan. */
interface SnapshotOptions {
  readonly root: string;
  /** The workspace's .smithignore; .gitignore files and always-skipped folders (.git, node_modules) are honoured too. */
  readonly ignore: IgnorePolicy;
  /** Files larger than this are not stored (and reported as skipped). */
  readonly maxFileBytes: number;
  /** The previous scan's state: a file whose size, mtime and inode are unchanged is not read again. */
  readonly previous?: FolderState;
  readonly signal?: AbortSignal;
}

/** What one scan accumulates across folders. */
interface Scan {
  readonly store: ObjectStore;
  readonly options: SnapshotOptions;
  readonly scanStartedMs: number;
  readonly stats: Float64Array;
  /** The content hashes of the files read while statting. */
  readonly queue: ScanQueue;
  readonly changed: string[];
  readonly skipped: SkippedFile[];
  filesRead: number;
  statsChanged: boolean;
  sinceYield: number;
}

/** One folder's files after a scan; `rowsSame` when its listing's file rows are those of the previous scan. */
interface ScannedFiles {
  readonly files: ReadonlyMap<string, CachedEntry>;
  readonly skipped: ReadonlyMap<string, StatStamp>;
  readonly rowsSame: boolean;
}

/**
 * Scans the workspace the way list_files sees it and stores the content of every new or changed
 * file. Nothing is written inside the workspace, and folders named .git are never entered: a
 * nested repository's files are kept as ordinary files, its .git is left alone.
 *
 * Like git status, a scan stats every file (a file's content can change without its folder
 * changing) and reads only those whose size, mtime or inode changed; the stats are taken on
 * several threads. A folder where nothing changed keeps its listing's hash, so only the listings
 * on changed paths are written, and the changed paths come out of the same pass.
 */
export async function takeSnapshot(store: ObjectStore, options: SnapshotOptions): Promise<Snapshot> {
  // A file changed within the clock's resolution of this scan could change again with the same
  // mtime; such entries are kept with an impossible mtime so the next scan reads them again.
  const scanStartedMs = Date.now();
  store.refresh();
  // The walk hands what it finds to helper threads as it goes: they stat it and read, hash and hand
  // to the store every file that is new or changed since the previous scan (its stat differs).
  const queue = new ScanQueue({
    maxBytes: options.maxFileBytes,
    take: (hash, content) => store.putHashed(hash, content),
    takeBlock: (hashes, lengths, contents, deflated) => store.putBlock(hashes, lengths, contents, deflated),
  });
  let folders: WalkedFolder[];
  try {
    folders = await walkFolders(
      options.root,
      options.ignore,
      options.previous,
      { push: (path, listedAsFile, known) => queue.push(path, listedAsFile, known ? KIND_OF_MODE[known.mode] : -1, known?.stamp) },
      options.signal,
    );
  } catch (error) {
    queue.cancel();
    throw error;
  }
  queue.end();
  const scan: Scan = {
    store,
    options,
    scanStartedMs,
    stats: queue.stats,
    queue,
    changed: [],
    skipped: [],
    filesRead: 0,
    statsChanged: !options.previous,
    sinceYield: 0,
  };
  const states: FolderState[] = new Array(folders.length);
  // Each folder's listing is written as soon as its files are statted, while the rest are still
  // being statted (by the helpers): the listings are not left for one thread after the scan.
  const order = new AssemblyOrder(folders);
  try {
    for (let progress: ScanProgress | undefined; !progress?.finished; ) {
      progress = await queue.advance(options.signal);
      for (const i of order.ready(progress.prefixEnd, progress.suffixStart)) {
        const folder = folders[i] as WalkedFolder;
        states[i] = assemble(scan, folder, await scanFiles(scan, folder), states, i === 0);
      }
    }
  } catch (error) {
    queue.cancel();
    throw error;
  }
  const state = states[0] as FolderState;
  // The snapshot's new objects are on disk before its root is handed out.
  store.flush();
  scan.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root: state.tree ?? '', state, changed: scan.changed.sort(), skipped: scan.skipped, filesRead: scan.filesRead, statsChanged: scan.statsChanged };
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

/** A folder's files: unchanged stats keep their entry, the others are read and stored. */
async function scanFiles(scan: Scan, folder: WalkedFolder): Promise<ScannedFiles> {
  const { stats, options } = scan;
  const previous = folder.previous;
  // Made at the first file that is not as the previous scan saw it: an unchanged folder keeps its map.
  let files = previous ? undefined : new Map<string, CachedEntry>();
  const skipped = new Map<string, StatStamp>();
  let rowsSame = previous?.tree !== undefined;
  let keptBefore = 0; // names kept now that were kept by the previous scan too
  for (let j = 0; j < folder.names.length; j++) {
    if (++scan.sinceYield === YIELD_EVERY) {
      scan.sinceYield = 0;
      await yieldToEventLoop();
      options.signal?.throwIfAborted();
    }
    const name = folder.names[j] as string;
    const at = (folder.first + j) * FIELDS;
    const kind = stats[at];
    if (kind === MISSING || kind === OTHER) continue; // deleted since it was listed; folders, FIFOs, sockets, devices
    const mode: FileMode = kind === LINK ? 'link' : kind === EXEC ? 'exec' : 'file';
    const known = previous?.files.get(name);
    if (known && known.mode === mode && sameStamp(known.stamp, stats, at)) {
      files?.set(name, known);
      keptBefore++;
      continue;
    }
    files ??= keptUpTo(scan, folder, j);
    const entry = readChanged(scan, folder, name, mode, at, skipped);
    if (!entry) continue;
    files.set(name, entry);
    if (known) keptBefore++;
    if (!known || known.hash !== entry.hash || known.mode !== entry.mode) scan.changed.push(joinRel(folder.rel, name));
    if (!known || known.hash !== entry.hash || known.mode !== entry.mode || known.size !== entry.size) rowsSame = false;
  }
  if (previous && keptBefore < previous.files.size) {
    files ??= keptUpTo(scan, folder, folder.names.length);
    rowsSame = false;
    scan.statsChanged = true;
    for (const name of previous.files.keys()) if (!files.has(name)) scan.changed.push(joinRel(folder.rel, name));
  }
  if (skipped.size !== (previous?.skipped.size ?? 0)) scan.statsChanged = true; // a skipped file is gone
  // The listing names the files not kept, so a change in which ones are skipped is a new listing.
  if (rowsSame && !sameNames(skipped, previous?.skipped)) rowsSame = false;
  return { files: files ?? previous?.files ?? new Map(), skipped, rowsSame };
}

/** The entries of the files before `end`, every one of which was kept as the previous scan saw it. */
function keptUpTo(scan: Scan, folder: WalkedFolder, end: number): Map<string, CachedEntry> {
  const files = new Map<string, CachedEntry>();
  for (let j = 0; j < end; j++) {
    const name = folder.names[j] as string;
    const kind = scan.stats[(folder.first + j) * FIELDS];
    const known = folder.previous?.files.get(name);
    if (known && kind !== MISSING && kind !== OTHER) files.set(name, known);
  }
  return files;
}

/**
 * A new or changed file: read and stored, or, when it is too big or cannot be read, recorded in
 * `skipped` (and reported when it is new or changed since the previous scan).
 */
function readChanged(scan: Scan, folder: WalkedFolder, name: string, mode: FileMode, at: number, skipped: Map<string, StatStamp>): CachedEntry | undefined {
  const { stats, options } = scan;
  const size = stats[at + 1] as number;
  const mtimeMs = stats[at + 2] as number;
  const stamp: StatStamp = { size, mtimeMs: scan.scanStartedMs - mtimeMs < 2000 ? -1 : mtimeMs, ino: stats[at + 3] as number };
  if (size > options.maxFileBytes)
    return skipFile(scan, folder, name, at, stamp, skipped, `larger than ${formatBytes(options.maxFileBytes)} (${formatBytes(size)})`);
  scan.filesRead++;
  if (stats[at + 4] === READ_DONE) {
    // Read, hashed and stored while statting.
    scan.statsChanged = true;
    return { hash: scan.queue.hashOf(at / FIELDS), mode, size, stamp };
  }
  let bytes: Buffer;
  try {
    bytes = contentOf(folder.prefix + name, mode, size);
  } catch (error) {
    return skipFile(scan, folder, name, at, stamp, skipped, `could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  scan.statsChanged = true;
  return { hash: scan.store.put(bytes), mode, size: bytes.length, stamp };
}

/** A file not kept: reported unless the previous scan skipped it at the same stat. (A function of its own, not a closure made for every file read.) */
function skipFile(scan: Scan, folder: WalkedFolder, name: string, at: number, stamp: StatStamp, skipped: Map<string, StatStamp>, reason: string): undefined {
  const before = folder.previous?.skipped.get(name);
  if (before && sameStamp(before, scan.stats, at)) skipped.set(name, before);
  else {
    scan.skipped.push({ path: joinRel(folder.rel, name), reason });
    skipped.set(name, stamp);
    scan.statsChanged = true;
  }
  return undefined;
}

/** The folder's state: its listing hash is the previous one when its rows and its subfolders' listings are unchanged. */
function assemble(scan: Scan, folder: WalkedFolder, scanned: ScannedFiles, states: readonly FolderState[], isRoot: boolean): FolderState {
  const previous = folder.previous;
  const folders = new Map<string, FolderState>();
  const listings = new Map<string, string>();
  let same = scanned.rowsSame;
  for (const [name, index] of folder.folders) {
    const child = states[index] as FolderState;
    folders.set(name, child);
    if (child.tree === '' || child.tree === undefined) continue; // nothing kept below: not in the snapshot
    listings.set(name, child.tree);
    if (previous?.folders.get(name)?.tree !== child.tree) same = false;
  }
  if (previous) {
    let listedBefore = 0;
    for (const [name, child] of previous.folders) {
      if (child.tree !== '') listedBefore++;
      if (folders.has(name)) continue;
      // Gone, or ignored now: every file below it was removed from the snapshot.
      filesBelow(child, joinRel(folder.rel, name), scan.changed);
      scan.statsChanged = true;
    }
    if (listedBefore !== listings.size) same = false;
  }
  const empty = scanned.files.size === 0 && listings.size === 0 && scanned.skipped.size === 0 && !isRoot;
  // A listing is reused only while it is stored (the store's own garbage collection may have freed it).
  const reuse = same && previous?.tree !== undefined && (previous.tree === '' || scan.store.has(previous.tree));
  const tree = reuse ? (previous?.tree ?? '') : empty ? '' : writeListing(scan.store, scanned.files, listings, scanned.skipped.keys(), previous?.tree);
  return { files: scanned.files, skipped: scanned.skipped, folders, tree, ignore: folder.ignore };
}

function sameNames(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown> | undefined): boolean {
  if (a.size !== (b?.size ?? 0)) return false;
  for (const name of a.keys()) if (!b?.has(name)) return false;
  return true;
}

/** True when the stat at `at` is the one the stamp was taken from (a racily clean stamp never is). */
function sameStamp(stamp: StatStamp, stats: Float64Array, at: number): boolean {
  return stamp.size === stats[at + 1] && stamp.mtimeMs === stats[at + 2] && stamp.ino === stats[at + 3];
}

const KIND_OF_MODE: Record<FileMode, number> = { file: KIND.file, exec: KIND.exec, link: KIND.link };

/** Synchronous on purpose: one file's read is microseconds, an awaited one a thread-pool round trip each. */
function contentOf(absolute: string, mode: FileMode, size: number): Buffer {
  return mode === 'link' ? Buffer.from(readlinkSync(absolute), 'utf8') : readRegularFileOfSizeSync(absolute, size);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
