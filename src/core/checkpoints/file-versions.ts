import type { FileStamp, FileVersions } from '../log/file-stamp.js';
import { contentHash, type ObjectStore } from './object-store.js';

/**
 * File versions kept as objects of a checkpoint store (the same content-addressed objects its
 * snapshots use, so a file the last checkpoint holds costs nothing more). Each new version is
 * written to disk at once, as a small pack: it must survive a crash and a resume, and it is never
 * held in memory after that.
 */
export class StoredFileVersions implements FileVersions {
  constructor(
    private readonly objects: ObjectStore,
    readonly maxBytes: number,
  ) {}

  keep(stamp: FileStamp, bytes: Uint8Array): void {
    if (bytes.byteLength > this.maxBytes || bytes.byteLength !== stamp.size) return;
    try {
      if (this.objects.has(stamp.sha256) || contentHash(bytes) !== stamp.sha256) return;
      this.objects.put(bytes);
      this.objects.flush();
    } catch {
      // A store that cannot be written only means this version cannot be merged into later.
    }
  }

  bytesOf(sha256: string): Uint8Array | undefined {
    try {
      return this.objects.has(sha256) ? this.objects.get(sha256) : undefined;
    } catch {
      return undefined; // missing or damaged: the edit is refused as before, never merged wrongly
    }
  }
}
