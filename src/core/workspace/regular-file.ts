import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

// Opening a FIFO for reading blocks until a writer appears, and reading a device such as
// /dev/zero never ends. Files a workspace supplies (rules, ignore files, configs, sources) are
// therefore opened non-blocking and checked on the open handle before a byte is read, so a path
// swapped after an earlier stat cannot hang the task either.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** A path that exists but is not a regular file (a FIFO, socket, device or folder). */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREGULAR';
  constructor(readonly path: string) {
    super(`${path} is not a regular file; Smith reads only regular files.`);
    this.name = 'NotRegularFileError';
  }
}

/** The whole content of a regular file; throws NotRegularFileError for anything else. */
export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await open(path, OPEN_FLAGS);
  try {
    if (!(await handle.stat()).isFile()) throw new NotRegularFileError(path);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** readRegularFile for the few loaders that must stay synchronous. */
export function readRegularFileSync(path: string): Buffer {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    if (!fstatSync(fd).isFile()) throw new NotRegularFileError(path);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * readRegularFileSync for a file whose size a stat just gave: one read of that many bytes (and
 * one more, to notice growth) instead of a second stat; a file that changed size since is read
 * again the ordinary way.
 */
export function readRegularFileOfSizeSync(path: string, size: number): Buffer {
  const fd = openSync(path, OPEN_FLAGS);
  let filled = 0;
  let buffer: Buffer;
  try {
    if (!fstatSync(fd).isFile()) throw new NotRegularFileError(path);
    buffer = Buffer.allocUnsafe(size + 1);
    while (filled < buffer.length) {
      const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
  } finally {
    closeSync(fd);
  }
  return filled === size ? buffer.subarray(0, size) : readRegularFileSync(path);
}

/**
 * At most the first `maxBytes` of a regular file, its size as stat tells it, and whether more
 * follows; throws NotRegularFileError for anything else. A huge or sparse file is never read whole.
 */
export async function readRegularFileHead(path: string, maxBytes: number): Promise<{ readonly bytes: Buffer; readonly size: number; readonly more: boolean }> {
  const handle = await open(path, OPEN_FLAGS);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFileError(path);
    // One byte beyond the head tells whether more follows, also where stat says 0 (some /proc files).
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: buffer.subarray(0, Math.min(filled, maxBytes)), size: info.size, more: filled > maxBytes };
  } finally {
    await handle.close();
  }
}

/** readRegularFileHead for the few loaders that must stay synchronous. */
export function readRegularFileHeadSync(path: string, maxBytes: number): { readonly bytes: Buffer; readonly size: number; readonly more: boolean } {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new NotRegularFileError(path);
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: buffer.subarray(0, Math.min(filled, maxBytes)), size: info.size, more: filled > maxBytes };
  } finally {
    closeSync(fd);
  }
}
