import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
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
