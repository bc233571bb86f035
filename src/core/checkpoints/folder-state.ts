import type { IgnoreRuleSet } from '../workspace/file-listing.js';
import type { FileEntry } from './tree-objects.js';

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

/**
 * What the ignore rules said of each name in a folder, and the rules that said it. A verdict is a
 * function of the rules, the path and whether it is a folder only, so while the rules are the same
 * objects the next scan looks names up here instead of matching them again.
 */
export interface IgnoreMemo {
  /** The rules in force inside the folder (its own set last). */
  readonly rules: readonly IgnoreRuleSet[];
  /** The folder's own ignore files, kept so that unchanged text reuses the compiled matcher. */
  readonly own: IgnoreRuleSet | undefined;
  readonly verdicts: ReadonlyMap<string, number>;
}

/**
 * One folder as a scan left it: the stat cache of its files, its subfolders, and the hash of its
 * listing object. A scan builds the next state from the previous one and reuses the listing hash
 * of a folder where nothing below changed, so a checkpoint after a few edits hashes and stores
 * only the listings on the changed paths.
 */
export interface FolderState {
  /** Files kept (regular, executable, symbolic links) by name. */
  readonly files: ReadonlyMap<string, CachedEntry>;
  /** Files not kept (too big, unreadable) by name, so an unchanged one is reported only once. */
  readonly skipped: ReadonlyMap<string, StatStamp>;
  /** Subfolders the scan entered, by name. */
  readonly folders: ReadonlyMap<string, FolderState>;
  /**
   * The listing object's hash; '' when no file is kept below (the folder is not in the snapshot);
   * undefined when not known (a state read back from an older stat cache file), so it is rewritten.
   */
  readonly tree: string | undefined;
  /** Undefined when not known: every name is judged again. */
  readonly ignore: IgnoreMemo | undefined;
}

/** Appends the root-relative path of every kept file at or below `state` (at `rel`) to `into`. */
export function filesBelow(state: FolderState, rel: string, into: string[]): void {
  // An explicit stack: a deep tree must not overflow the call stack.
  const stack: Array<[FolderState, string]> = [[state, rel]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [folder, at] = next;
    for (const name of folder.files.keys()) into.push(joinRel(at, name));
    for (const [name, child] of folder.folders) stack.push([child, joinRel(at, name)]);
  }
}

/** `name` inside the root-relative folder `rel` ('' for the root). */
export function joinRel(rel: string, name: string): string {
  return rel === '' ? name : `${rel}/${name}`;
}
