import { randomBytes } from 'node:crypto';
import { access, chmod, mkdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FileSystemPort } from '../ports.js';

/** The real file system; used by the CLI and by tests as the honest double of the editor's files. */
export class NodeFileSystem implements FileSystemPort {
  async readFile(absolutePath: string): Promise<Uint8Array> {
    return readFile(absolutePath);
  }

  async writeFileAtomic(absolutePath: string, data: string | Uint8Array): Promise<void> {
    const dir = dirname(absolutePath);
    await mkdir(dir, { recursive: true });
    const temp = join(dir, `.${basename(absolutePath)}.${randomBytes(4).toString('hex')}.tmp`);
    const mode = await stat(absolutePath).then((s) => s.mode, () => undefined);
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
    return access(absolutePath).then(() => true, () => false);
  }

  async deleteFile(absolutePath: string): Promise<void> {
    await unlink(absolutePath);
  }
}
