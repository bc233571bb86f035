import {
  closeSync,
  constants,
  type Dir,
  type Dirent,
  fstatSync,
  lstatSync,
  openSync,
  opendirSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

// What a repository ships (rules, command files, modes, settings, MCP config) is read only where
// its real path lies inside the workspace: a link in the repository to ~/.ssh/id_rsa,
// /proc/self/environ or / must not put that file in front of the model. Every such loader reads
// through one ContainedFiles, which also bounds what it reads (bytes per file, bytes in all,
// entries per folder) and turns every bad entry into a note instead of an exception.

/** How much one loader may read. */
export interface LoaderCaps {
  /** Bytes read of one file at most. */
  readonly fileBytes: number;
  /** Bytes one loader reads in all; files past it are skipped. */
  readonly totalBytes: number;
  /** Entries one folder listing looks at (sub-folders included); the rest are skipped. */
  readonly entries: number;
}

/** An entry a loader did not read (or read only in part), and why. */
export interface SkippedEntry {
  /** The path as the loader named it (before links are followed). */
  readonly path: string;
  readonly reason: string;
}

/** What to do with a file larger than the per-file cap. */
type Oversize = 'cut' | 'skip';

/** Where a loader may read. */
interface ContainedFilesOptions {
  /** Folders a file's real path must lie in (the workspace folders). */
  readonly within: readonly string[];
  /**
   * The user's own folders (in the home folder or Smith's storage): read wherever their links
   * point, since the user, not a repository, put them there.
   */
  readonly trusted?: readonly string[];
  readonly caps: LoaderCaps;
}

/** A listed file: its path as named and its path relative to the listed folder ('/'-separated). */
interface ListedFile {
  readonly path: string;
  readonly rel: string;
}

type Kind = 'file' | 'folder' | 'other';

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const MAX_DEPTH = 16;

/** Bytes as a reader sees them in notes and docs: `64 KiB`, `1 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** One loader's reads of workspace-shipped files: contained, capped, and noted rather than thrown. */
export class ContainedFiles {
  /** Everything skipped or cut so far, in the order met. */
  readonly skipped: SkippedEntry[] = [];
  private readonly within: readonly string[];
  private readonly lexicalWithin: readonly string[];
  private readonly trusted: readonly string[];
  private readonly noted = new Set<string>();
  private total = 0;

  constructor(private readonly options: ContainedFilesOptions) {
    this.within = options.within.flatMap((root) => {
      const real = realPathOrUndefined(resolve(root));
      return real ? [real] : [];
    });
    this.lexicalWithin = options.within.map((root) => resolve(root));
    this.trusted = (options.trusted ?? []).map((folder) => resolve(folder));
  }

  /** A file's text, or undefined (with a note unless it simply does not exist). Invalid UTF-8 is replaced, with a note. */
  readText(path: string, oversize: Oversize): string | undefined {
    const bytes = this.readBytes(path, oversize);
    if (bytes === undefined) return undefined;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      this.note(path, 'not valid UTF-8; the invalid bytes read as \uFFFD');
      return new TextDecoder('utf-8').decode(bytes);
    }
  }

  /**
   * True when something is at the path (a dangling link counts: reading it says what is wrong).
   * A missing entry below a folder link that leads out is noted.
   */
  present(path: string): boolean {
    const absolute = resolve(path);
    try {
      if (lstatSync(absolute, { throwIfNoEntry: false }) !== undefined) return true;
    } catch {
      // ENOTDIR and the like: nothing there.
    }
    if (!this.trusted.some((folder) => isInside(absolute, folder))) this.noteLinkOut(absolute);
    return false;
  }

  /** True when the path (links followed, contained) is a regular file; a link that leads out is noted. */
  isFile(path: string): boolean {
    return this.resolveEntry(path)?.kind === 'file';
  }

  /** True when the path (links followed, contained) is a folder; a link that leads out is noted. */
  isFolder(path: string): boolean {
    return this.resolveEntry(path)?.kind === 'folder';
  }

  /**
   * The files of a folder whose relative path `match`es, sorted by that path. Links are followed
   * only where they stay inside; a folder reached twice (a link loop) is listed once.
   */
  listFiles(
    dir: string,
    options: { readonly match: (rel: string) => boolean; readonly recursive: boolean; readonly skipFolders?: readonly string[] },
  ): ListedFile[] {
    const start = this.resolveEntry(dir);
    if (start?.kind !== 'folder') return [];
    const found: ListedFile[] = [];
    const visited = new Set<string>([start.real]);
    const pending: Array<{ path: string; real: string; rel: string; depth: number }> = [{ path: resolve(dir), real: start.real, rel: '', depth: 0 }];
    let examined = 0;
    while (pending.length > 0) {
      const folder = pending.shift()!;
      let handle: Dir;
      try {
        handle = opendirSync(folder.real);
      } catch (error) {
        this.note(folder.path, `unreadable: ${codeOf(error)}`);
        continue;
      }
      try {
        for (let entry: Dirent | null = handle.readSync(); entry !== null; entry = handle.readSync()) {
          if (++examined > this.options.caps.entries) {
            this.note(dir, `more than ${this.options.caps.entries} entries; the rest are not read`);
            pending.length = 0;
            break;
          }
          const rel = folder.rel === '' ? entry.name : `${folder.rel}/${entry.name}`;
          const path = join(folder.path, entry.name);
          let kind = direntKind(entry);
          let real = join(folder.real, entry.name);
          if (kind === undefined) {
            // A link (or an entry the file system did not type) is followed only where it could matter.
            const wanted = options.match(rel) || (options.recursive && !options.skipFolders?.includes(rel));
            const resolved = wanted ? this.resolveEntry(path) : undefined;
            if (!resolved) continue;
            kind = resolved.kind;
            real = resolved.real;
          }
          if (kind === 'folder') {
            if (!options.recursive || options.skipFolders?.includes(rel) || visited.has(real)) continue;
            if (folder.depth + 1 > MAX_DEPTH) {
              this.note(path, `deeper than ${MAX_DEPTH} folders; not read`);
              continue;
            }
            visited.add(real);
            pending.push({ path, real, rel, depth: folder.depth + 1 });
          } else if (options.match(rel)) {
            if (kind === 'file') found.push({ path, rel });
            else this.note(path, 'not a regular file (a FIFO, socket or device)');
          }
        }
      } catch (error) {
        this.note(folder.path, `unreadable: ${codeOf(error)}`);
      } finally {
        handle.closeSync();
      }
    }
    return found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  }

  private readBytes(path: string, oversize: Oversize): Buffer | undefined {
    const entry = this.resolveEntry(path);
    if (!entry) return undefined;
    if (entry.kind === 'folder') return this.skip(path, 'a folder, not a file');
    if (entry.kind === 'other') return this.skip(path, 'not a regular file (a FIFO, socket or device)');
    const { fileBytes, totalBytes } = this.options.caps;
    const budget = Math.min(fileBytes, totalBytes - this.total);
    if (budget <= 0) return this.skip(path, `past the ${formatBytes(totalBytes)} these files may total; skipped`);
    let fd: number;
    try {
      // The real path, without following a last link: a swap after resolving cannot lead elsewhere.
      fd = openSync(entry.real, OPEN_FLAGS);
    } catch (error) {
      return this.skip(path, `unreadable: ${codeOf(error)}`);
    }
    try {
      if (!fstatSync(fd).isFile()) return this.skip(path, 'not a regular file (a FIFO, socket or device)');
      if (!entry.trusted && !this.openedInside(fd)) return this.skip(path, 'links outside the workspace; not read');
      const { buffer, length } = readUpTo(fd, budget + 1);
      if (length <= budget) {
        this.total += length;
        return buffer.subarray(0, length);
      }
      if (budget < fileBytes) return this.skip(path, `past the ${formatBytes(totalBytes)} these files may total; skipped`);
      if (oversize === 'skip') return this.skip(path, `larger than ${formatBytes(fileBytes)}; skipped`);
      this.note(path, `larger than ${formatBytes(fileBytes)}; cut at ${formatBytes(fileBytes)}`);
      this.total += budget;
      return withoutPartialCharacter(buffer.subarray(0, budget));
    } catch (error) {
      return this.skip(path, `unreadable: ${codeOf(error)}`);
    } finally {
      closeSync(fd);
    }
  }

  /** The entry behind a path with every link on the way followed, or undefined (noted) when it is missing, broken or outside. */
  private resolveEntry(path: string): { real: string; kind: Kind; trusted: boolean } | undefined {
    const absolute = resolve(path);
    const trusted = this.trusted.some((folder) => isInside(absolute, folder));
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch (error) {
      const code = codeOf(error);
      if (code === 'ELOOP') this.note(path, 'a link loop; not read');
      else if (code !== 'ENOENT' && code !== 'ENOTDIR') this.note(path, `unreadable: ${code}`);
      else if (isLink(absolute)) this.note(path, 'a link to nothing; not read');
      else if (!trusted) this.noteLinkOut(absolute);
      return undefined;
    }
    if (!trusted && !this.within.some((root) => isInside(real, root))) {
      this.note(path, 'links outside the workspace; not read');
      return undefined;
    }
    let kind: Kind;
    try {
      const stats = statSync(real);
      kind = stats.isFile() ? 'file' : stats.isDirectory() ? 'folder' : 'other';
    } catch (error) {
      this.note(path, `unreadable: ${codeOf(error)}`);
      return undefined;
    }
    return { real, kind, trusted };
  }

  // A missing entry below a folder link that leads out (`.cursor -> /` asked for `.cursor/rules`):
  // nothing is read, but the link is worth telling.
  private noteLinkOut(absolute: string): void {
    const root = this.lexicalWithin.find((folder) => isInside(absolute, folder) && absolute !== folder);
    if (!root) return;
    for (let folder = dirname(absolute); folder !== root && isInside(folder, root); folder = dirname(folder)) {
      const real = realPathOrUndefined(folder);
      if (real === undefined) continue;
      const parentReal = realPathOrUndefined(dirname(folder));
      if (!this.within.some((within) => isInside(real, within)) && parentReal !== undefined && this.within.some((within) => isInside(parentReal, within))) {
        this.note(folder, 'links outside the workspace; not read');
        return;
      }
    }
  }

  // Where the kernel says the open file is: a folder on the way swapped for a link between
  // realpath and open would show here. Off Linux (no /proc) the realpath check stands alone.
  private openedInside(fd: number): boolean {
    let opened: string;
    try {
      opened = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return true;
    }
    return this.within.some((root) => isInside(opened, root));
  }

  private skip(path: string, reason: string): undefined {
    this.note(path, reason);
    return undefined;
  }

  private note(path: string, reason: string): void {
    const key = `${path}\0${reason}`;
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.skipped.push({ path, reason });
  }
}

/** True when `path` is `folder` or lies below it (both absolute and normalized). */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** How a skipped entry reads in a warning: `.cursor/rules/a.md: links outside the workspace; not read`. */
export function describeSkipped(entry: SkippedEntry, root?: string): string {
  const absolute = resolve(entry.path);
  const shown = root && isInside(absolute, resolve(root)) && absolute !== resolve(root) ? relative(resolve(root), absolute).split(sep).join('/') : entry.path;
  return `${shown}: ${entry.reason}`;
}

// Reads until the end or `limit` bytes, whichever comes first. The size stat reports is only a
// first guess (files in /proc report 0), so the buffer grows as bytes come.
function readUpTo(fd: number, limit: number): { buffer: Buffer; length: number } {
  let buffer = Buffer.alloc(Math.min(limit, Math.max(fstatSync(fd).size + 1, 8192)));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length >= limit) break;
      const grown = Buffer.alloc(Math.min(limit, buffer.length * 2));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return { buffer, length };
}

function direntKind(entry: Dirent): Kind | undefined {
  if (entry.isDirectory()) return 'folder';
  if (entry.isFile()) return 'file';
  if (entry.isFIFO() || entry.isSocket() || entry.isBlockDevice() || entry.isCharacterDevice()) return 'other';
  return undefined;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function realPathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

// A cut may land inside a multi-byte character; drop its lead bytes so the cut text decodes cleanly.
function withoutPartialCharacter(bytes: Buffer): Buffer {
  let end = bytes.length;
  let back = 0;
  while (end - back - 1 >= 0 && back < 4 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead === undefined) return bytes;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (size > back + 1) end = end - back - 1;
  return bytes.subarray(0, end);
}
