import { mkdtempSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real folder on disk for a test, removed by dispose(). */
export interface TempWorkspace {
  readonly root: string;
  write(relativePath: string, content: string | Uint8Array): string;
  read(relativePath: string): string;
  readBytes(relativePath: string): Buffer;
  dispose(): void;
}

export function createTempWorkspace(prefix = 'smith-test-'): TempWorkspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return {
    root,
    write(relativePath, content) {
      const full = join(root, relativePath);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
      return full;
    },
    read: (relativePath) => readFileSync(join(root, relativePath), 'utf8'),
    readBytes: (relativePath) => readFileSync(join(root, relativePath)),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
