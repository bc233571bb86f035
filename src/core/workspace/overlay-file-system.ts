import { relative, sep } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { FileInfo, FileSystemPort, ReadChunksOptions } from '../ports.js';

/**
 * A file system that never writes: writes and deletions are kept in memory over the real files,
 * and reads see them. `--dry-run` runs the tools on it and prints the changes as one patch.
 * Listing and searching (list_files, search_files) still see the files on disk.
 */
export class OverlayFileSystem implements FileSystemPort {
  /** Path → new bytes, or null for a deleted file. */
  private readonly changes = new Map<string, Uint8Array | null>();
  private writes = 0;

  constructor(private readonly base: FileSystemPort) {}

  async readFile(absolutePath: string): Promise<Uint8Array> {
    const changed = this.changes.get(absolutePath);
    if (changed === null) throw Object.assign(new Error(`ENOENT: no such file, open '${absolutePath}'`), { code: 'ENOENT' });
    return changed ?? this.base.readFile(absolutePath);
  }

  async stat(absolutePath: string): Promise<FileInfo | undefined> {
    const changed = this.changes.get(absolutePath);
    if (changed === null) return undefined;
    // A distinct mtime per write, so the stale-file check sees each write as a change.
    if (changed) return { type: 'file', size: changed.length, mtimeMs: this.writes };
    return this.base.stat(absolutePath);
  }

  async *readChunks(absolutePath: string, options: ReadChunksOptions = {}): AsyncIterable<Uint8Array> {
    const changed = this.changes.get(absolutePath);
    if (changed === undefined) {
      yield* this.base.readChunks(absolutePath, options);
      return;
    }
    options.signal?.throwIfAborted();
    if (changed === null) throw Object.assign(new Error(`ENOENT: no such file, open '${absolutePath}'`), { code: 'ENOENT' });
    yield changed;
  }

  async writeFileAtomic(absolutePath: string, data: string | Uint8Array): Promise<void> {
    this.writes++;
    this.changes.set(absolutePath, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  async exists(absolutePath: string): Promise<boolean> {
    const changed = this.changes.get(absolutePath);
    return changed === undefined ? this.base.exists(absolutePath) : changed !== null;
  }

  async deleteFile(absolutePath: string): Promise<void> {
    if (!(await this.exists(absolutePath))) throw Object.assign(new Error(`ENOENT: no such file, unlink '${absolutePath}'`), { code: 'ENOENT' });
    this.writes++;
    this.changes.set(absolutePath, null);
  }

  /** The changes as one unified diff against the files on disk (git-style a/ b/ paths relative to `root`). */
  async patch(root: string): Promise<string> {
    const parts: string[] = [];
    for (const path of [...this.changes.keys()].sort()) {
      const after = this.changes.get(path);
      const before = (await this.base.exists(path)) ? Buffer.from(await this.base.readFile(path)).toString('utf8') : undefined;
      const afterText = after ? Buffer.from(after).toString('utf8') : undefined;
      if (before === afterText) continue;
      const rel = relative(root, path).split(sep).join('/');
      const patch = createTwoFilesPatch(
        before === undefined ? '/dev/null' : `a/${rel}`,
        afterText === undefined ? '/dev/null' : `b/${rel}`,
        before ?? '',
        afterText ?? '',
        undefined,
        undefined,
        { context: 3 },
      );
      // jsdiff starts with an Index line and a ===== rule; git apply wants the --- / +++ header first.
      // git apply needs the mode line to create or delete a file.
      const mode = before === undefined ? 'new file mode 100644\n' : afterText === undefined ? 'deleted file mode 100644\n' : '';
      parts.push(`diff --git a/${rel} b/${rel}\n${mode}${patch.slice(patch.indexOf('---'))}`);
    }
    return parts.join('');
  }
}
