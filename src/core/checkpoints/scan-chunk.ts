import type { closeSync, fstatSync, lstatSync, openSync, readSync, Stats } from 'node:fs';

/** Numbers per path in a scan's result: kind, size, mtimeMs, inode, and what reading it gave. */
export const STAT_FIELDS = 5;
/** Kinds in a scan's result. */
export const KIND = { missing: 0, file: 1, exec: 2, link: 3, other: 4 } as const;
/** The fifth field: whether the content was read, hashed and handed over (`done`), or is for the main thread to read the ordinary way (`again`). */
export const READ = { none: 0, done: 1, again: 2 } as const;
/** Numbers per path of the stat its content was last read at: kind (-1: none), size, mtimeMs, inode. */
export const PREVIOUS_FIELDS = 4;

/** The parts of node:crypto a content hash needs (`hash` is Node's one-shot form, missing before 20.12). */
interface HashingCrypto {
  readonly hash?: (algorithm: string, data: Uint8Array) => string;
  readonly createHash: (algorithm: string) => { update(data: Uint8Array): { digest(encoding: 'hex'): string } };
}

/**
 * The SHA-256 of some bytes, in hex, with the one-shot hash where Node has it: for small files it
 * takes a fraction of the time createHash's object takes. Also serialized into the helpers.
 */
export function sha256HexOf(crypto: HashingCrypto): (bytes: Uint8Array) => string {
  const oneShot = crypto.hash;
  return oneShot ? (bytes) => oneShot('sha256', bytes) : (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
}

/** What scanChunk may call: the file system, hashing, and where read content goes. */
export interface ScanIo {
  readonly lstatSync: typeof lstatSync;
  readonly openSync: typeof openSync;
  readonly fstatSync: typeof fstatSync;
  readonly readSync: typeof readSync;
  readonly closeSync: typeof closeSync;
  /** SHA-256 in hex (sha256HexOf). */
  readonly hash: (bytes: Uint8Array) => string;
  readonly kind: typeof KIND;
  readonly read: typeof READ;
  /** O_RDONLY | O_NONBLOCK | O_NOFOLLOW: a FIFO never blocks the open, a link is never followed. */
  readonly openFlags: number;
  /** Buffer.allocUnsafe, passed in: the global Buffer is a getter, and this runs for every file read. */
  readonly allocate: (size: number) => Buffer;
  /** Called before `bytes` of content are read; a helper thread waits here while too much read content is not yet taken. */
  reserve(bytes: number): void;
  /** A file's content was read, and hashed. */
  deliver(index: number, content: Buffer, hash: string): void;
}

/** Paths to scan, and the shared arrays the answers go to. */
export interface ScanJob {
  readonly paths: readonly string[];
  /** STAT_FIELDS numbers per path (written). */
  readonly values: Float64Array;
  /** How to read content; absent: stat only. */
  readonly reading?: {
    /** PREVIOUS_FIELDS numbers per path: a file whose stat equals its previous one is not read. */
    readonly previous: Float64Array;
    /** 1 where the folder listing said "regular file": with no previous stat, it is opened at once and its stat taken on the open file. */
    readonly listedAsFile: Uint8Array;
    /** Files larger than this are not read. */
    readonly maxBytes: number;
  };
}

/**
 * Stats the paths `start` to `end` of a job without following links and, when the job reads,
 * reads and hashes every regular file within the size limit whose stat differs from its previous
 * one. Git's way with a new file: one open, one fstat, one read and one close; lstat first only
 * where a previous stat is to be compared, or where the open failed (a link, a file gone or
 * unreadable). Anything unusual (unreadable, not a regular file once open, a size that changed
 * while reading) is marked `again`, so the main thread reads it the ordinary way and reports it
 * exactly as it always did.
 *
 * Runs on the main thread and, as text, on the helper threads (parallel-scan.ts), so it refers to
 * nothing outside itself but its arguments and the globals every thread has.
 */
export function scanChunk(io: ScanIo, job: ScanJob, start: number, end: number): void {
  const { kind: K, read: R } = io;
  const reading = job.reading;
  for (let i = start; i < end; i++) {
    const path = job.paths[i] as string;
    const at = i * 5;
    const was = i * 4;
    let stats: Stats | undefined;
    let fd = -1;
    if (reading && reading.previous[was] === -1 && reading.listedAsFile[i] === 1) {
      try {
        fd = io.openSync(path, io.openFlags);
        stats = io.fstatSync(fd);
      } catch {
        if (fd >= 0) io.closeSync(fd);
        fd = -1;
        stats = undefined;
      }
    }
    try {
      if (!stats) {
        try {
          stats = io.lstatSync(path, { throwIfNoEntry: false });
        } catch {
          // unreadable: treated as gone, as a failed lstat always was
        }
      }
      const kind = !stats ? K.missing : stats.isSymbolicLink() ? K.link : !stats.isFile() ? K.other : stats.mode & 0o111 ? K.exec : K.file;
      job.values[at] = kind;
      job.values[at + 4] = R.none;
      if (!stats) continue;
      job.values[at + 1] = stats.size;
      job.values[at + 2] = stats.mtimeMs;
      job.values[at + 3] = stats.ino;
      if (!reading || (kind !== K.file && kind !== K.exec) || stats.size > reading.maxBytes) continue;
      const p = reading.previous;
      if (p[was] === kind && p[was + 1] === stats.size && p[was + 2] === stats.mtimeMs && p[was + 3] === stats.ino) continue;
      const size = stats.size;
      io.reserve(size);
      let content: Buffer | undefined;
      try {
        if (fd < 0) {
          fd = io.openSync(path, io.openFlags);
          if (!io.fstatSync(fd).isFile()) throw new Error('not a regular file once open');
        }
        // One byte more than the stat said tells a file that grew meanwhile. A read of a regular
        // file returns less than asked only at its end, so one read is enough: a second one just to
        // see the end costs a system call a file.
        const buffer = io.allocate(size + 1);
        let filled = 0;
        for (;;) {
          const wanted = buffer.length - filled;
          const n = io.readSync(fd, buffer, filled, wanted, filled);
          filled += n;
          if (n < wanted || filled === buffer.length) break;
        }
        if (filled === size) content = buffer.subarray(0, size);
      } catch {
        content = undefined;
      }
      if (!content) {
        job.values[at + 4] = R.again;
        continue;
      }
      job.values[at + 4] = R.done;
      io.deliver(i, content, io.hash(content));
    } finally {
      if (fd >= 0) io.closeSync(fd);
    }
  }
}
