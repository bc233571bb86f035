import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { access, chmod, mkdir, open, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FileInfo, FileSystemPort, ReadChunksOptions } from '../ports.js';
import { readRegularFile } from './regular-file.js';

/** Chunk size of readChunks unless the caller asks for another. */
export const READ_CHUNK_BYTES = 64 * 1024;

/** The real file system; used by the CLI and by tests as the honest double of the editor's files. */
export class NodeFileSystem implements FileSystemPort {
  async readFile(absolutePath: string): Promise<Uint8Array> {
    return readRegularFile(absolutePath);
  }

  async stat(absolutePath: string): Promise<FileInfo | undefined> {
    try {
      return fileInfo(await stat(absolutePath));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
  }

  async *readChunks(absolutePath: string, options: ReadChunksOptions = {}): AsyncIterable<Uint8Array> {
    const { signal } = options;
    const chunkSize = Math.max(1, options.chunkSize ?? READ_CHUNK_BYTES);
    signal?.throwIfAborted();
    // Opening a FIFO for reading waits for a writer unless O_NONBLOCK is set; the type is then
    // checked on the open handle, so a path swapped after an earlier stat cannot hang us either.
    const handle = await open(absolutePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const info = fileInfo(await handle.stat());
      if (info.type !== 'file') throw new Error(`${absolutePath} is not a regular file (it is a ${info.type}).`);
      for (;;) {
        signal?.throwIfAborted();
        const buffer = Buffer.allocUnsafe(chunkSize);
        const { bytesRead } = await handle.read(buffer, 0, chunkSize, null);
        if (bytesRead === 0) return;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }

  async writeFileAtomic(absolutePath: string, data: string | Uint8Array): Promise<void> {
    const dir = dirname(absolutePath);
    await mkdir(dir, { recursive: true });
    const temp = join(dir, `.${basename(absolutePath)}.${randomBytes(4).toString('hex')}.tmp`);
    const mode = await stat(absolutePath).then(
      (s) => s.mode,
      () => undefined,
    );
    try {
      await writeFile(temp, data);
      if (mode !== undefined) await chmod(temp, mode);
      await rename(temp, absolutePath);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async exists(absolutePath: string): Promise<boolean> {
    return access(absolutePath).then(
      () => true,
      () => false,
    );
  }

  async deleteFile(absolutePath: string): Promise<void> {
    await unlink(absolutePath);
  }
}

/** The port's view of a Node stat result. */
function fileInfo(stats: Stats): FileInfo {
  const type = stats.isFile()
    ? 'file'
    : stats.isDirectory()
      ? 'directory'
      : stats.isFIFO()
        ? 'fifo'
        : stats.isSocket()
          ? 'socket'
          : stats.isCharacterDevice() || stats.isBlockDevice()
            ? 'device'
            : 'other';
  return { type, size: stats.size, mtimeMs: stats.mtimeMs };
}
