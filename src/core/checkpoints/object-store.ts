import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

/** The content hash that names an object: sha-256 of its uncompressed bytes, in hex. */
export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Content-addressed objects (file contents and folder listings), gzipped, one file each under
 * `objects/ab/cdef…`. An object is written to a temporary name and renamed into place, so a crash
 * leaves either the whole object or none; the same content is stored once however often it is
 * checkpointed.
 */
export class ObjectStore {
  private readonly known = new Set<string>();
  private readonly folders = new Set<string>();

  constructor(readonly dir: string) {}

  /** Stores `bytes` (if not already stored) and returns their hash. */
  put(bytes: Uint8Array): string {
    const hash = contentHash(bytes);
    if (this.has(hash)) return hash;
    const file = this.pathOf(hash);
    const folder = join(this.dir, hash.slice(0, 2));
    if (!this.folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.folders.add(folder);
    }
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temp, gzipSync(bytes, { level: 1 }));
    renameSync(temp, file);
    this.known.add(hash);
    return hash;
  }

  /** The bytes of an object; throws a clear error when it is missing or damaged. */
  get(hash: string): Buffer {
    let packed: Buffer;
    try {
      packed = readFileSync(this.pathOf(hash));
    } catch {
      throw new Error(`checkpoint object ${hash} is missing from ${this.dir}`);
    }
    const bytes = gunzipSync(packed);
    if (contentHash(bytes) !== hash) throw new Error(`checkpoint object ${hash} in ${this.dir} is damaged`);
    return bytes;
  }

  has(hash: string): boolean {
    if (this.known.has(hash)) return true;
    if (!existsSync(this.pathOf(hash))) return false;
    this.known.add(hash);
    return true;
  }

  /** Bytes on disk of one object (compressed), 0 when missing. */
  storedSize(hash: string): number {
    try {
      return statSync(this.pathOf(hash)).size;
    } catch {
      return 0;
    }
  }

  /** Every stored hash (for garbage collection). */
  *hashes(): Generator<string> {
    if (!existsSync(this.dir)) return;
    for (const prefix of readdirSync(this.dir)) {
      for (const rest of readdirSync(join(this.dir, prefix))) if (!rest.endsWith('.tmp')) yield prefix + rest;
    }
  }

  /** Deletes objects not in `live` (and temporary files a crash left) last written before `olderThanMs`; returns the bytes freed. */
  sweep(live: ReadonlySet<string>, olderThanMs: number): number {
    let freed = 0;
    if (!existsSync(this.dir)) return 0;
    for (const prefix of readdirSync(this.dir)) {
      for (const rest of readdirSync(join(this.dir, prefix))) {
        const hash = prefix + rest;
        if (!rest.endsWith('.tmp') && live.has(hash)) continue;
        const file = join(this.dir, prefix, rest);
        const stats = statSync(file, { throwIfNoEntry: false });
        if (!stats || stats.mtimeMs >= olderThanMs) continue;
        freed += stats.size;
        rmSync(file, { force: true });
        this.known.delete(hash);
      }
    }
    return freed;
  }

  private pathOf(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash.slice(2));
  }
}
