import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { deleteFileAt, fileState, inspectPath, removeTempOf, writeFileAt } from './link-safe-files.js';
import type { ObjectStore } from './object-store.js';
import type { FileMode } from './tree-objects.js';

/** One file a restore puts back. */
export interface RestoreWrite {
  readonly path: string;
  readonly hash: string;
  readonly mode: FileMode;
}

/** Everything one restore changes in the workspace. */
interface RestoreOperations {
  readonly writes: readonly RestoreWrite[];
  /** Files that did not exist at the checkpoint. */
  readonly deletes: readonly string[];
}

/**
 * One file of a journaled restore. `before` is what was on disk just before the restore touched
 * it, `after` what the restore leaves there (both as inspectPath states: `missing`, `file:<hash>`…);
 * a write names the object to write.
 */
interface JournalFile {
  readonly path: string;
  readonly before: string;
  readonly after: string;
  readonly hash?: string;
  readonly mode?: FileMode;
}

interface Journal {
  readonly version: 2;
  readonly root: string;
  /** The process applying it: a journal of a process still running is not an interrupted one. */
  readonly pid: number;
  readonly files: readonly JournalFile[];
}

/** A journal of an older Smith: the plan only, without what each file was before. */
interface JournalV1 extends RestoreOperations {
  readonly version?: undefined;
  readonly root: string;
}

/** The before of a file an older journal did not record: it is finished as that Smith would have. */
const UNKNOWN = '?';

function upcast(journal: Journal | JournalV1): Journal {
  if (journal.version !== undefined || !Array.isArray(journal.writes) || !Array.isArray(journal.deletes)) return journal as Journal;
  return {
    version: 2,
    root: journal.root,
    pid: 0,
    files: [
      ...journal.deletes.map((path) => ({ path, before: UNKNOWN, after: 'missing' })),
      ...journal.writes.map((w) => ({ path: w.path, before: UNKNOWN, after: fileState(w.mode, w.hash), hash: w.hash, mode: w.mode })),
    ],
  };
}

/** What finishing an interrupted restore did. */
export interface RecoveredRestore {
  /** The workspace folder it was restoring. */
  readonly root: string;
  /** Files still as the crash left them (not yet restored) that were restored now. */
  readonly finished: readonly string[];
  /** Files the interrupted restore had already put back. */
  readonly alreadyDone: number;
  /** Files changed by someone else since the crash: left as they are. */
  readonly leftAlone: readonly string[];
  /** Files that could not be restored, with why. */
  readonly failures: readonly string[];
  /** The journal could not be read: nothing could be finished. */
  readonly damaged?: boolean;
}

/**
 * A point of a restore, for tests that stop it there: `before-journal`, `journal-written`,
 * `temp:<n>` (the n-th file's temporary copy written, not yet renamed), `file:<n>` (after the n-th
 * file), `before-clear`.
 */
export type RestoreStepHook = (step: string) => void;

/**
 * Applies a restore so that a crash at any moment leaves every workspace file whole and the
 * restore finishable: the plan, with what each file was before and what it will be, is written to
 * a journal first; each file is then written to a temporary name beside it and renamed over the
 * old one (never through a symbolic link, see link-safe-files.ts); the journal is removed last.
 * `recover` finishes an interrupted restore (it rolls forward): a file still as the crash left it
 * (its before or its after) is restored; one that is neither was changed since, and is left alone
 * and reported.
 */
export class RestoreJournal {
  constructor(
    private readonly file: string,
    private readonly objects: ObjectStore,
    private readonly step: RestoreStepHook = () => {},
  ) {}

  /** Restores the files; returns the ones that could not be put back (e.g. a folder now stands there), with why. */
  apply(root: string, operations: RestoreOperations): string[] {
    for (const path of [...operations.writes.map((w) => w.path), ...operations.deletes]) assertRestorable(path);
    // Read every object first: a damaged store fails the restore before any file is touched.
    for (const write of operations.writes) this.objects.get(write.hash);
    // Deletes first: a link or file that stands where a folder of the checkpoint belongs goes
    // before that folder's files are written.
    const files: JournalFile[] = [
      ...operations.deletes.map((path) => ({ path, before: journalState(root, path), after: 'missing' })),
      ...operations.writes.map((w) => ({ path: w.path, before: journalState(root, w.path), after: fileState(w.mode, w.hash), hash: w.hash, mode: w.mode })),
    ];
    this.step('before-journal');
    this.write({ version: 2, root, pid: process.pid, files });
    this.step('journal-written');
    const failures: string[] = [];
    files.forEach((file, index) => {
      const failure = this.perform(root, file, () => this.step(`temp:${index + 1}`));
      if (failure) failures.push(failure);
      this.step(`file:${index + 1}`);
    });
    this.finish(root, files);
    return failures;
  }

  /**
   * Finishes an interrupted restore; undefined when there is none (or its process still runs).
   * Files changed since the crash are left alone; the journal is removed either way.
   */
  recover(): RecoveredRestore | undefined {
    if (!existsSync(this.file)) return undefined;
    let journal: Journal;
    try {
      journal = upcast(JSON.parse(readFileSync(this.file, 'utf8')) as Journal | JournalV1);
      if (journal.version !== 2 || typeof journal.root !== 'string' || !Array.isArray(journal.files)) throw new Error('not a restore journal');
      for (const file of journal.files) assertRestorable(file.path);
    } catch {
      // It is renamed into place whole, so this is damage from outside: nothing can be finished safely.
      rmSync(this.file, { force: true });
      return { root: '', finished: [], alreadyDone: 0, leftAlone: [], failures: [], damaged: true };
    }
    if (journal.pid !== process.pid && isRunning(journal.pid)) return undefined;
    const finished: string[] = [];
    const leftAlone: string[] = [];
    const failures: string[] = [];
    let alreadyDone = 0;
    for (const file of journal.files) {
      const now = journalState(journal.root, file.path);
      // A link removed so that a folder of the checkpoint could be written there: that folder is the link's "after".
      const madeFolder =
        now === 'folder' && file.hash === undefined && journal.files.some((other) => other.hash !== undefined && other.path.startsWith(`${file.path}/`));
      if (now === file.after || madeFolder) alreadyDone++;
      else if (now !== file.before && file.before !== UNKNOWN) leftAlone.push(file.path);
      else {
        const failure = this.perform(journal.root, file);
        if (failure) failures.push(failure);
        else finished.push(file.path);
      }
    }
    this.finish(journal.root, journal.files);
    return { root: journal.root, finished, alreadyDone, leftAlone, failures };
  }

  /** One file; every file is tried, so one that cannot be written does not leave the others half restored. */
  private perform(root: string, file: JournalFile, tempWritten?: () => void): string | undefined {
    try {
      if (file.hash === undefined) deleteFileAt(root, file.path);
      else writeFileAt(root, file.path, this.objects.get(file.hash), file.mode ?? 'file', tempWritten);
      return undefined;
    } catch (error) {
      return `${file.path}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  private finish(root: string, files: readonly JournalFile[]): void {
    for (const file of files) {
      try {
        if (file.hash !== undefined) removeTempOf(root, file.path);
      } catch {
        // a temporary file that cannot be removed is harmless; the restore itself is done
      }
    }
    this.step('before-clear');
    rmSync(this.file, { force: true });
  }

  /** The journal is written whole and flushed, then renamed into place, so it is either complete or absent. */
  private write(journal: Journal): void {
    const temp = `${this.file}.tmp`;
    const fd = openSync(temp, 'w');
    try {
      const bytes = Buffer.from(JSON.stringify(journal));
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
  }
}

/**
 * What is at a path, for the journal: a path that runs through a link or a file is not in the
 * workspace, so it counts as missing (this restore itself removes such links before writing).
 */
function journalState(root: string, path: string): string {
  const { state } = inspectPath(root, path);
  return state === 'blocked' ? 'missing' : state;
}

/** A checkpoint only ever holds workspace paths outside any .git folder; anything else (a tampered store) is refused. */
export function assertRestorable(path: string): void {
  const parts = typeof path === 'string' ? path.split('/') : [''];
  if (path === '' || path.includes('\0') || path.startsWith('/') || parts.some((part) => part === '..' || part === '.' || part === '' || part === '.git')) {
    throw new Error(`refusing to restore ${JSON.stringify(path)}: not a plain workspace path`);
  }
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
