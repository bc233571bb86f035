// The scratch copies a bisect tests in: one folder per bisect under `<storage>/bisects/`, holding
// one checkpoint's files at a time, removed after each run and at the end. A folder whose bisect
// died (kill -9, a crash) is removed by the next bisect of that storage.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { CheckpointStore } from '../checkpoints/checkpoint-store.js';
import { materializeCheckpoint } from '../replay/scratch-workspace.js';

/** The file naming the process that owns a bisect's folder. */
const OWNER_FILE = 'owner.json';
/** A folder without a readable owner this long after it was made is left over, not being set up. */
const ORPHANED_AFTER_MS = 60 * 60 * 1000;

/** Where a storage's bisects make their scratch copies. */
export function bisectsDir(storageDir: string): string {
  return join(storageDir, 'bisects');
}

/** A checkpoint's files written out: the primary folder's copy and a multi-root workspace's other folders' copies. */
export interface ScratchState {
  /** The copy of the task's workspace folder: the test's working folder. */
  readonly workspace: string;
  /** Every copy (the workspace first): the folders the test may write. */
  readonly folders: readonly string[];
}

/** One folder to write out: where it was, the store its snapshot is in, and the snapshot. */
export interface StoredFolder {
  readonly path: string;
  readonly store: CheckpointStore;
  readonly root: string;
}

/** A bisect's scratch folder, owned by this process until `remove`. */
export class ScratchArea {
  private constructor(readonly dir: string) {}

  /** Makes `<storage>/bisects/<id>/`, after removing the folders of bisects that are no longer running. */
  static open(storageDir: string, id: string): ScratchArea {
    removeAbandoned(bisectsDir(storageDir));
    const dir = join(bisectsDir(storageDir), id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, OWNER_FILE), JSON.stringify({ pid: process.pid, startedAt: Date.now() }));
    return new ScratchArea(dir);
  }

  /**
   * Writes a checkpoint into a fresh folder `<name>/`, each folder of the workspace at the same
   * place relative to the others as it was (`/p/web` and `/p/api` become `<name>/web` and
   * `<name>/api`), so a test that reaches `../api` still finds it. Throws when a stored object is
   * missing (pruned); what was written is removed first.
   */
  write(name: string, primary: StoredFolder, others: readonly StoredFolder[]): ScratchState {
    const base = join(this.dir, name);
    removeTree(base);
    try {
      const all = [primary, ...others];
      const ancestor = commonAncestor(all.map((folder) => resolve(folder.path)));
      const folders = all.map((folder) => {
        const at = join(base, relative(ancestor, resolve(folder.path)) || basename(folder.path) || 'workspace');
        materializeCheckpoint(folder.store, folder.root, at);
        return at;
      });
      return { workspace: folders[0]!, folders };
    } catch (error) {
      removeTree(base);
      throw error;
    }
  }

  /** Removes one state's copy. */
  clear(name: string): void {
    removeTree(join(this.dir, name));
  }

  /** Removes the whole area. */
  remove(): void {
    removeTree(this.dir);
  }
}

/** Removes the bisect folders whose owner process has ended (a bisect killed before it could clean up). */
function removeAbandoned(dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const folder = join(dir, name);
    if (ownerAlive(folder)) continue;
    removeTree(folder);
  }
}

function ownerAlive(folder: string): boolean {
  let owner: { pid?: unknown };
  try {
    owner = JSON.parse(readFileSync(join(folder, OWNER_FILE), 'utf8')) as { pid?: unknown };
  } catch {
    // Being set up right now, or left over: only an old one is removed.
    try {
      return Date.now() - statSync(folder).mtimeMs < ORPHANED_AFTER_MS;
    } catch {
      return false;
    }
  }
  if (typeof owner.pid !== 'number') return false;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a folder however the test left it: a folder it made read-only (or without search
 * permission) is opened up first, so its files can be removed. Links are removed, never followed.
 */
export function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 3 });
    return;
  } catch {
    // Below: permissions a test took away.
  }
  openUp(path);
  rmSync(path, { recursive: true, force: true, maxRetries: 3 });
}

function openUp(path: string): void {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch {
    return;
  }
  if (!stats.isDirectory()) return;
  try {
    chmodSync(path, 0o700);
  } catch {
    return;
  }
  for (const name of readdirSync(path)) openUp(join(path, name));
}

/** The deepest folder holding every path; for one path, its parent (so the copy keeps its name). */
function commonAncestor(paths: readonly string[]): string {
  let ancestor = dirname(paths[0]!);
  while (!paths.every((path) => path.startsWith(ancestor.endsWith(sep) ? ancestor : ancestor + sep))) {
    const up = dirname(ancestor);
    if (up === ancestor) break;
    ancestor = up;
  }
  return ancestor;
}
