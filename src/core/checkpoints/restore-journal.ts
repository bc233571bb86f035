import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ObjectStore } from './object-store.js';
import type { FileMode } from './tree-objects.js';

/** One file a restore puts back. */
export interface RestoreWrite {
  readonly path: string;
  readonly hash: string;
  readonly mode: FileMode;
}

/** Everything one restore changes in the workspace. */
export interface RestoreOperations {
  readonly writes: readonly RestoreWrite[];
  /** Files that did not exist at the checkpoint. */
  readonly deletes: readonly string[];
}

interface Journal extends RestoreOperations {
  readonly root: string;
}

/**
 * Applies a restore so that a crash at any moment leaves every workspace file whole: the plan is
 * written to a journal first, each file is written to a temporary name beside it and renamed over
 * the old one, and the journal is removed last. `recover` (run when the store opens) finishes a
 * restore a crash interrupted; every step can be repeated safely.
 */
export class RestoreJournal {
  constructor(
    private readonly file: string,
    private readonly objects: ObjectStore,
  ) {}

  /** Restores the files; returns the ones that could not be put back (e.g. a folder now stands there), with why. */
  apply(root: string, operations: RestoreOperations): string[] {
    for (const path of [...operations.writes.map((w) => w.path), ...operations.deletes]) assertRestorable(path);
    // Read every object first: a damaged store fails the restore before any file is touched.
    for (const write of operations.writes) this.objects.get(write.hash);
    const temp = `${this.file}.tmp`;
    writeFileSync(temp, JSON.stringify({ root, ...operations } satisfies Journal));
    renameSync(temp, this.file);
    return this.replay({ root, ...operations });
  }

  /** Finishes an interrupted restore; returns what it did, if there was one. */
  recover(): { root: string; failures: string[] } | undefined {
    if (!existsSync(this.file)) return undefined;
    let journal: Journal;
    try {
      journal = JSON.parse(readFileSync(this.file, 'utf8')) as Journal;
    } catch {
      // The journal is renamed into place whole, so this is damage from outside: nothing to finish.
      rmSync(this.file, { force: true });
      return undefined;
    }
    return { root: journal.root, failures: this.replay(journal) };
  }

  /** Every step is tried, so one file that cannot be written does not leave the others half restored. */
  private replay(journal: Journal): string[] {
    const failures: string[] = [];
    const attempt = (path: string, step: () => void): void => {
      try {
        step();
      } catch (error) {
        failures.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    for (const write of journal.writes) attempt(write.path, () => writeAtomically(join(journal.root, write.path), this.objects.get(write.hash), write.mode));
    for (const path of journal.deletes) attempt(path, () => rmSync(join(journal.root, path), { force: true }));
    for (const write of journal.writes) rmSync(tempNameOf(join(journal.root, write.path)), { force: true });
    rmSync(this.file, { force: true });
    return failures;
  }
}

/** A checkpoint only ever holds workspace paths outside any .git folder; anything else is refused. */
function assertRestorable(path: string): void {
  const parts = path.split('/');
  if (path === '' || path.startsWith('/') || parts.some((part) => part === '..' || part === '.' || part === '' || part === '.git')) {
    throw new Error(`refusing to restore ${JSON.stringify(path)}: not a plain workspace path`);
  }
}

function tempNameOf(absolute: string): string {
  return join(dirname(absolute), `.${basename(absolute)}.smith-restore`);
}

function writeAtomically(absolute: string, bytes: Buffer, mode: FileMode): void {
  mkdirSync(dirname(absolute), { recursive: true });
  const temp = tempNameOf(absolute);
  rmSync(temp, { force: true });
  if (mode === 'link') {
    symlinkSync(bytes.toString('utf8'), temp);
  } else {
    const current = existingMode(absolute);
    writeFileSync(temp, bytes);
    const base = current ?? 0o644;
    chmodSync(temp, mode === 'exec' ? base | 0o111 : base & ~0o111);
  }
  // A folder where the file should be (the user replaced it) is left alone: renaming fails clearly.
  renameSync(temp, absolute);
}

function existingMode(absolute: string): number | undefined {
  try {
    const stats = lstatSync(absolute);
    return stats.isFile() ? stats.mode & 0o777 : undefined;
  } catch {
    return undefined;
  }
}
