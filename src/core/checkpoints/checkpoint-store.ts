import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IGNORE_FILE_NAMES, ignoreFileText, type IgnoreRuleSet, judge, ruleSet } from '../workspace/file-listing.js';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import type { FileVersions } from '../log/file-stamp.js';
import { StoredFileVersions } from './file-versions.js';
import { ObjectStore } from './object-store.js';
import { inspectPath } from './link-safe-files.js';
import { assertRestorable, type RecoveredRestore, RestoreJournal, type RestoreStepHook, type RestoreWrite } from './restore-journal.js';
import { decodeStatCache, encodeStatCache } from './stat-cache-file.js';
import type { FolderState } from './folder-state.js';
import { TreeReader } from './tree-diff.js';
import { type FileEntry, type Manifest, reachableObjects, readTrees } from './tree-objects.js';
import { type SkippedFile, takeSnapshot } from './workspace-snapshot.js';

/** A scan that read this many files writes the stat cache at once; smaller ones at most every interval. */
const STAT_CACHE_EAGER_FILES = 256;
const STAT_CACHE_INTERVAL_MS = 30_000;

/** Files above this size are not checkpointed unless a setting says otherwise. */
const DEFAULT_CHECKPOINT_MAX_FILE_BYTES = 5 * 1024 * 1024;

/** One snapshot of the workspace: `root` names its content. */
export interface SnapshotResult {
  readonly root: string;
  /** Paths added, changed or removed since the previous snapshot of this store. */
  readonly changed: readonly string[];
  readonly skipped: readonly SkippedFile[];
}

/** What restoring a checkpoint would do. */
export interface RestorePlan {
  readonly writes: readonly RestoreWrite[];
  readonly deletes: readonly string[];
  /** Files the restore would change that were changed after `latest` (by the user, most likely). */
  readonly conflicts: readonly string[];
  /**
   * Files that differ from the checkpoint but that a snapshot did not keep (too big, ignored,
   * unreadable, not a regular file, or behind a link it did not keep): left as they are, never
   * overwritten or deleted.
   */
  readonly untouched: readonly SkippedFile[];
  /** The workspace as it is now (a snapshot taken for the plan), so the restore can be undone. */
  readonly current: string;
}

/** Options of a workspace's store. */
interface CheckpointStoreOptions {
  /** Smith's storage folder; the store lives in `checkpoints/<workspace key>/` below it. */
  readonly storageDir: string;
  readonly workspaceRoot: string;
  readonly ignore: IgnorePolicy;
  readonly maxFileBytes?: number;
  /** Called at each step of a restore (tests stop the process there to check recovery). */
  readonly restoreStepHook?: RestoreStepHook;
}

/**
 * A workspace's checkpoints, kept in Smith's storage and never in the workspace or its git: a
 * content-addressed object store (see ObjectStore, writeTrees), a stat cache, and a restore
 * journal. Snapshots are incremental: only files whose size, mtime or inode changed are read.
 */
export class CheckpointStore {
  readonly dir: string;
  readonly objects: ObjectStore;
  /** File contents the task's tools read or wrote, kept among the objects for merging an edit later. */
  readonly versions: FileVersions;
  private readonly journal: RestoreJournal;
  private readonly root: string;
  private last: { root: string; state: FolderState } | undefined;
  private cacheWrittenAt = 0;
  private cacheStale = false;

  constructor(private readonly options: CheckpointStoreOptions) {
    this.root = resolve(options.workspaceRoot);
    this.dir = checkpointDirOf(options.storageDir, this.root);
    mkdirSync(this.dir, { recursive: true });
    this.objects = new ObjectStore(join(this.dir, 'objects'));
    this.versions = new StoredFileVersions(this.objects, options.maxFileBytes ?? DEFAULT_CHECKPOINT_MAX_FILE_BYTES);
    this.journal = new RestoreJournal(restoreJournalFileOf(this.dir), this.objects, options.restoreStepHook);
  }

  /** Finishes a restore a crash interrupted (call once when the store is opened). */
  recoverInterruptedRestore(): RecoveredRestore | undefined {
    return this.journal.recover();
  }

  /** Scans the workspace and stores what changed; the result's `root` names the snapshot. */
  async snapshot(signal?: AbortSignal): Promise<SnapshotResult> {
    const previous = this.last ?? this.readStatCache();
    const next = await takeSnapshot(this.objects, {
      root: this.root,
      ignore: this.options.ignore,
      maxFileBytes: this.options.maxFileBytes ?? DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
      ...(previous ? { previous: previous.state } : {}),
      ...(signal ? { signal } : {}),
    });
    this.last = { root: next.root, state: next.state };
    if (next.statsChanged) this.cacheStale = true;
    // An older cache is still correct (each entry is checked against the file's stat), only less
    // complete; so the cache of a big workspace is rewritten when it saves much reading, not every time.
    if (this.cacheStale && (next.filesRead >= STAT_CACHE_EAGER_FILES || Date.now() - this.cacheWrittenAt >= STAT_CACHE_INTERVAL_MS)) this.flushStatCache();
    return { root: next.root, changed: next.changed, skipped: next.skipped };
  }

  /** Writes the stat cache now (hosts call this when a task ends), so the next start reads little. */
  flushStatCache(): void {
    if (!this.last || !this.cacheStale) return;
    this.writeStatCache(this.last.root, this.last.state);
    this.cacheWrittenAt = Date.now();
    this.cacheStale = false;
  }

  /** Every file of a snapshot. */
  manifestOf(root: string): Map<string, FileEntry> {
    return readTrees(this.objects, root);
  }

  /** A file's content at a snapshot, or undefined when it did not exist then. */
  contentAt(root: string, path: string): Buffer | undefined {
    const entry = new TreeReader(this.objects).entryAt(root, path);
    return entry ? this.objects.get(entry.hash) : undefined;
  }

  /**
   * What restoring `target` would change now, limited to `paths` when given. `latest` is the task's
   * most recent checkpoint: a file that differs from it now was changed by someone else since.
   */
  async planRestore(target: string, latest: string, paths?: readonly string[]): Promise<RestorePlan> {
    const current = (await this.snapshot()).root;
    // Compared listing by listing: only the folders that differ are read.
    const trees = new TreeReader(this.objects);
    const notKeptThen = new Set<string>();
    const inScope = paths ? new Set(paths) : undefined;
    const differing = trees.diff(current, target, notKeptThen).filter((change) => !inScope || inScope.has(change.path));
    const sinceLatest = new Set(current === latest ? [] : trees.diff(latest, current).map((change) => change.path));
    const writes: RestoreWrite[] = [];
    const deletes: string[] = [];
    const untouched: SkippedFile[] = [];
    for (const { path, after: entry } of differing) {
      // A path from the store is checked before anything on disk is looked at by it.
      assertRestorable(path);
      const reason = entry
        ? this.notKeptNow(path, (at) => trees.entryAt(current, at) !== undefined)
        : notKeptThen.has(path) || ignoredBy(this.objects, (at) => trees.entryAt(target, at), path)
          ? 'the checkpoint did not keep it (too big, unreadable or ignored then)'
          : undefined;
      if (reason) untouched.push({ path, reason });
      else if (entry) writes.push({ path, hash: entry.hash, mode: entry.mode });
      else deletes.push(path);
    }
    const changing = new Set([...writes.map((write) => write.path), ...deletes]);
    return {
      writes,
      deletes,
      conflicts: differing.map((change) => change.path).filter((path) => changing.has(path) && sinceLatest.has(path)),
      untouched,
      current,
    };
  }

  /**
   * Why a file the checkpoint kept must not be written now: something stands at its path (or on
   * the way to it, other than a real folder) that the current snapshot did not keep, so the user's
   * file there (too big, ignored, unreadable, special, or a link the walk skipped) is not replaced.
   */
  private notKeptNow(path: string, keptNow: (path: string) => boolean): string | undefined {
    const found = inspectPath(this.root, path, false);
    if (found.state === 'missing' || found.state === 'folder') return undefined; // an empty folder gives way; a full one fails the write
    if (found.state === 'blocked')
      return found.blockedAt !== undefined && keptNow(found.blockedAt)
        ? undefined
        : `${found.blockedAt ?? 'a folder on its way'} is not a folder and was not kept`;
    return keptNow(path) ? undefined : 'it is not kept now (too big, ignored, unreadable or not a regular file)';
  }

  /** Applies a plan (crash-safe, see RestoreJournal); returns the files that could not be restored. */
  restore(plan: Pick<RestorePlan, 'writes' | 'deletes'>): string[] {
    // The scan state stays: every file a restore writes is a new file renamed into place (a new
    // inode, made while the old file still existed), and a deleted one is gone, so the next scan's
    // stat comparison reads exactly those again, without the cold start of a reopened store.
    return this.journal.apply(this.root, plan);
  }

  /**
   * Deletes every object no live snapshot uses, other than the file versions named in
   * `liveVersions`. Objects younger than `graceMs` are kept: another Smith may be writing a
   * snapshot that no task log names yet.
   */
  collectGarbage(liveRoots: Iterable<string>, graceMs = 10 * 60_000, liveVersions: Iterable<string> = []): number {
    const live = new Set<string>(liveVersions);
    for (const root of liveRoots) if (this.objects.has(root)) reachableObjects(this.objects, root, live);
    // Both stat caches' snapshots stay: the next scan reuses their entries and listings.
    const cache = this.readStatCache();
    if (cache) reachableObjects(this.objects, cache.root, live);
    if (this.last && this.objects.has(this.last.root)) reachableObjects(this.objects, this.last.root, live);
    return this.objects.sweep(live, Date.now() - graceMs);
  }

  /**
   * Bytes on disk the given snapshots take: the objects they use (shared ones counted once; a
   * packed object's share of its pack) and the store's stat cache, which their scans share. For
   * the snapshots of every task of the workspace this is the store's size on disk.
   */
  storedSize(roots: Iterable<string>): number {
    const used = new Set<string>();
    for (const root of roots) if (this.objects.has(root)) reachableObjects(this.objects, root, used);
    if (used.size === 0) return 0;
    return this.objects.storedSize(used) + (statSync(join(this.dir, 'stat-cache.json'), { throwIfNoEntry: false })?.size ?? 0);
  }

  private readStatCache(): { root: string; state: FolderState } | undefined {
    try {
      const cache = decodeStatCache(readFileSync(join(this.dir, 'stat-cache.json'), 'utf8'), this.objects);
      return this.objects.has(cache.root) ? cache : undefined;
    } catch {
      return undefined; // a missing or damaged cache only means reading every file again
    }
  }

  /** The stat cache on disk: what the last snapshot saw, so the next one reads only changed files. */
  private writeStatCache(root: string, state: FolderState): void {
    const target = join(this.dir, 'stat-cache.json');
    writeFileSync(`${target}.tmp`, encodeStatCache(root, state));
    renameSync(`${target}.tmp`, target);
  }
}

/**
 * True when the checkpoint's own ignore files (as it kept them) exclude `path` or a folder on its
 * way: the file may have been there then, ignored, so a restore must not delete it as "created
 * since". Rules above the workspace and .smithignore are the same now as then.
 */
function ignoredBy(objects: ObjectStore, fileAt: (path: string) => FileEntry | undefined, path: string): boolean {
  const parts = path.split('/');
  const rules: IgnoreRuleSet[] = [];
  for (let depth = 0; depth < parts.length; depth++) {
    const base = parts.slice(0, depth).join('/');
    const texts: string[] = [];
    for (const name of IGNORE_FILE_NAMES) {
      const entry = fileAt(base === '' ? name : `${base}/${name}`);
      if (entry && entry.mode !== 'link') texts.push(ignoreFileText(objects.get(entry.hash)));
    }
    if (texts.length > 0) rules.push(ruleSet(base, texts.join('\n')));
    if (rules.length > 0 && judge(rules, parts.slice(0, depth + 1).join('/'), parts[depth] as string, depth < parts.length - 1).excluded) return true;
  }
  return false;
}

/** Where a store keeps the journal of a restore under way. */
export function restoreJournalFileOf(storeDir: string): string {
  return join(storeDir, 'restore-journal.json');
}

/** The store folder of a workspace: one per workspace path, inside Smith's storage. */
export function checkpointDirOf(storageDir: string, workspaceRoot: string): string {
  const key = createHash('sha256').update(resolve(workspaceRoot)).digest('hex').slice(0, 16);
  return join(storageDir, 'checkpoints', key);
}

/** True when the folder exists (a cheap test before opening a store just to read it). */
export function hasCheckpointStore(storageDir: string, workspaceRoot: string): boolean {
  try {
    return statSync(checkpointDirOf(storageDir, workspaceRoot)).isDirectory();
  } catch {
    return false;
  }
}

export type { FileEntry, Manifest, SkippedFile };
