import type { FileInfo, FileSystemPort, ReadChunksOptions } from '../../src/core/ports.js';
import { NodeFileSystem } from '../../src/core/workspace/node-file-system.js';

/**
 * The real file system, counting what the tools read: bytes handed out, the largest chunk, and
 * whole-file reads (which file tools must not use, so those fail loudly).
 */
export class CountingFileSystem implements FileSystemPort {
  private readonly disk = new NodeFileSystem();
  bytesRead = 0;
  largestChunk = 0;
  chunksRead = 0;
  /** Called after each chunk is handed out (e.g. to abort mid-read). */
  onChunk: (() => void) | undefined;

  readFile(absolutePath: string): Promise<Uint8Array> {
    return Promise.reject(new Error(`whole-file read of ${absolutePath}`));
  }

  stat(absolutePath: string): Promise<FileInfo | undefined> {
    return this.disk.stat(absolutePath);
  }

  async *readChunks(absolutePath: string, options?: ReadChunksOptions): AsyncIterable<Uint8Array> {
    for await (const chunk of this.disk.readChunks(absolutePath, options)) {
      this.bytesRead += chunk.byteLength;
      this.largestChunk = Math.max(this.largestChunk, chunk.byteLength);
      this.chunksRead++;
      yield chunk;
      this.onChunk?.();
    }
  }

  writeFileAtomic(absolutePath: string, data: string | Uint8Array): Promise<void> {
    return this.disk.writeFileAtomic(absolutePath, data);
  }

  exists(absolutePath: string): Promise<boolean> {
    return this.disk.exists(absolutePath);
  }

  deleteFile(absolutePath: string): Promise<void> {
    return this.disk.deleteFile(absolutePath);
  }
}
