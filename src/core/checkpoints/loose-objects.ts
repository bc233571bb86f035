import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * Objects an earlier Smith stored one file each (`objects/ab/cdef…`, gzipped, or older still as
 * they were): still read, counted and collected where they are. Nothing writes them any more.
 */
export class LooseObjects {
  private readonly known = new Set<string>();
  /** Whether the folder had any when last looked at (a first checkpoint asks `has` of every file). */
  private any = false;

  constructor(readonly dir: string) {}

  /** Looks at the folder again. */
  refresh(): void {
    try {
      this.any = readdirSync(this.dir).length > 0;
    } catch {
      this.any = false;
    }
  }

  /** The content of the object of this hash, or undefined when there is no such file. */
  get(hash: string): Buffer | undefined {
    const path = this.pathOf(hash);
    if (!existsSync(path)) return undefined;
    const bytes = readFileSync(path);
    return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  }

  has(hash: string): boolean {
    if (this.known.size > 0 && this.known.has(hash)) return true;
    if (!this.any || !existsSync(this.pathOf(hash))) return false;
    this.known.add(hash);
    return true;
  }

  /** Bytes its file takes, or 0 when there is none. */
  bytesOf(hash: string): number {
    return statSync(this.pathOf(hash), { throwIfNoEntry: false })?.size ?? 0;
  }

  /** Every object's hash. */
  *hashes(): Generator<string> {
    if (!existsSync(this.dir)) return;
    for (const prefix of readdirSync(this.dir)) for (const rest of readdirSync(join(this.dir, prefix))) if (!rest.endsWith('.tmp')) yield prefix + rest;
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
