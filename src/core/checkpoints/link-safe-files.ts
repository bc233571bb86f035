import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  type Stats,
  symlinkSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { contentHash } from './object-store.js';
import type { FileMode } from './tree-objects.js';

// A restore writes only inside the workspace. Every folder on the way to a file is checked with
// lstat from the workspace root down, so a folder that was replaced by a symbolic link (to
// anywhere) is never written through: the link itself is removed and a real folder made in its
// place. Files are written to a temporary name opened with O_NOFOLLOW|O_EXCL in the checked
// folder and renamed over the old entry, which replaces a link standing there instead of
// following it. What remains: Node has no openat/renameat, so a process that swaps a checked
// folder for a link between the last check and the rename could still redirect that one
// rename; the folder is checked again (realpath) just before it to make that window small.

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0);
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

/** A path a restore refuses to go through, and why. */
class UnsafePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafePathError';
  }
}

/**
 * What stands at a workspace path, seen without following any link: `blocked` when a folder on
 * the way is a link or not a folder (the path then leads out of the workspace, or nowhere).
 * `state` is one comparable word: `missing`, `folder`, `other`, `blocked`, or `<mode>:<hash>`.
 */
interface OnDisk {
  readonly state: string;
  /** For `blocked`: the first path on the way that is not a real folder. */
  readonly blockedAt?: string;
}

/** The comparable state of a kept file: what the restore writes, or what it found. */
export function fileState(mode: FileMode, hash: string): string {
  return `${mode}:${hash}`;
}

/** What is at `rel` (a '/'-separated path below `root`) now, following no link; without `contents` a file or link is just `present`. */
export function inspectPath(root: string, rel: string, contents = true): OnDisk {
  const parts = rel.split('/');
  let absolute = root;
  for (let i = 0; i < parts.length - 1; i++) {
    absolute = join(absolute, parts[i] as string);
    const stats = lstatOrUndefined(absolute);
    if (!stats) return { state: 'missing' };
    if (!stats.isDirectory()) return { state: 'blocked', blockedAt: parts.slice(0, i + 1).join('/') };
  }
  const final = join(absolute, parts.at(-1) as string);
  if (!contents) {
    const stats = lstatOrUndefined(final);
    return { state: !stats ? 'missing' : stats.isDirectory() ? 'folder' : 'present' };
  }
  return { state: stateOf(final) };
}

/** Writes a kept file (a link as a link, never followed) at `rel`, making real folders on the way; `tempWritten` runs between the write and the rename. */
export function writeFileAt(root: string, rel: string, bytes: Buffer, mode: FileMode, tempWritten?: () => void): void {
  const parent = realFoldersTo(root, rel);
  const name = rel.split('/').at(-1) as string;
  const absolute = join(parent, name);
  const temp = tempNameOf(parent, name);
  removeEntry(temp);
  if (mode === 'link') {
    symlinkSync(bytes.toString('utf8'), temp);
  } else {
    const current = lstatOrUndefined(absolute);
    const base = current?.isFile() ? current.mode & 0o777 : 0o644;
    const fd = openSync(temp, CREATE_FLAGS, 0o600);
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      fchmodSync(fd, mode === 'exec' ? base | 0o111 : base & ~0o111);
    } finally {
      closeSync(fd);
    }
  }
  tempWritten?.();
  try {
    assertInside(root, rel, parent);
    const there = lstatOrUndefined(absolute);
    // An empty folder where the file belongs (its files were removed by this restore) gives way;
    // one with files in it is the user's and is left alone.
    if (there?.isDirectory()) {
      try {
        rmdirSync(absolute);
      } catch {
        throw new UnsafePathError(`${rel}: a folder with files in it stands there; it was left as it is`);
      }
    }
    renameSync(temp, absolute);
  } catch (error) {
    removeEntry(temp);
    throw error;
  }
}

/** Removes the file or link at `rel`; never a folder, never through a link; nothing there is fine. */
export function deleteFileAt(root: string, rel: string): void {
  const found = inspectPath(root, rel);
  if (found.state === 'missing' || found.state === 'blocked') return; // not in the workspace any more
  if (found.state === 'folder') throw new UnsafePathError(`${rel}: a folder stands there now; it was left as it is`);
  if (found.state === 'other') throw new UnsafePathError(`${rel}: not a file or link now (a FIFO, socket or device); it was left as it is`);
  const parts = rel.split('/');
  unlinkSync(join(realFoldersTo(root, rel, false), parts.at(-1) as string));
}

/** Removes a temporary file a restore left beside `rel`, if the way there is still real folders. */
export function removeTempOf(root: string, rel: string): void {
  if (inspectPath(root, rel).state === 'blocked') return;
  const parts = rel.split('/');
  const parent = join(root, ...parts.slice(0, -1));
  if (parts.length > 1 && lstatOrUndefined(parent)?.isDirectory() !== true) return;
  removeEntry(tempNameOf(parent, parts.at(-1) as string));
}

/**
 * The folder `rel` lives in, every folder from `root` down checked with lstat: a missing one is
 * made; a link is removed (the link, never its target) and a real folder made instead; a file
 * there fails. With `create` false nothing is changed and anything but a real folder fails.
 */
function realFoldersTo(root: string, rel: string, create = true): string {
  const parts = rel.split('/');
  let absolute = root;
  for (let i = 0; i < parts.length - 1; i++) {
    absolute = join(absolute, parts[i] as string);
    const at = parts.slice(0, i + 1).join('/');
    let stats = lstatOrUndefined(absolute);
    if (stats?.isDirectory()) continue;
    if (!create) throw new UnsafePathError(`${rel}: ${at} is not a folder any more`);
    if (stats?.isSymbolicLink()) unlinkSync(absolute);
    else if (stats) throw new UnsafePathError(`${rel}: ${at} is a file, not a folder; it was left as it is`);
    try {
      mkdirSync(absolute);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    stats = lstatOrUndefined(absolute);
    if (!stats?.isDirectory()) throw new UnsafePathError(`${rel}: ${at} could not be made a folder`);
  }
  return absolute;
}

/** The last check before a rename: the folder written in resolves to where it should, inside the workspace. */
function assertInside(root: string, rel: string, parent: string): void {
  const parentRel = rel.split('/').slice(0, -1);
  const expected = join(realpathSync(root), ...parentRel);
  if (realpathSync(parent) !== expected) throw new UnsafePathError(`${rel}: a folder on the way was replaced while restoring; nothing was written there`);
}

function stateOf(absolute: string): string {
  const stats = lstatOrUndefined(absolute);
  if (!stats) return 'missing';
  if (stats.isDirectory()) return 'folder';
  if (stats.isSymbolicLink()) return fileState('link', contentHash(Buffer.from(readlinkSync(absolute), 'utf8')));
  if (!stats.isFile()) return 'other';
  let fd: number;
  try {
    fd = openSync(absolute, READ_FLAGS);
  } catch {
    return 'other'; // unreadable: not something a restore can compare, so never its to touch
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return 'other';
    return fileState(opened.mode & 0o111 ? 'exec' : 'file', contentHash(readFileSync(fd)));
  } finally {
    closeSync(fd);
  }
}

function tempNameOf(parent: string, name: string): string {
  return join(parent, `.${name}.smith-restore`);
}

function removeEntry(absolute: string): void {
  const stats = lstatOrUndefined(absolute);
  if (stats && !stats.isDirectory()) unlinkSync(absolute);
}

function lstatOrUndefined(absolute: string): Stats | undefined {
  return lstatSync(absolute, { throwIfNoEntry: false });
}
