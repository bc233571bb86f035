import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Every entry under `dir` with its kind, mode, mtime and bytes (a link's target): equal fingerprints mean untouched. */
export function folderFingerprint(dir: string): string {
  const hash = createHash('sha256');
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const stats = lstatSync(path);
      hash.update(`${path}\0${stats.mode}\0${stats.mtimeMs}\0`);
      if (stats.isDirectory()) walk(path);
      else if (stats.isSymbolicLink()) hash.update(readlinkSync(path));
      else if (stats.isFile()) hash.update(readFileSync(path));
    }
  };
  walk(dir);
  return hash.digest('hex');
}
