import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Finds an executable the way a shell would: a name with a path separator is checked as is,
 * a bare name is looked up in PATH (with PATHEXT on Windows). Returns its absolute path.
 */
export async function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const windows = process.platform === 'win32';
  const extensions = windows ? ['', ...(lookup(env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  if (name.includes('/') || (windows && name.includes('\\')) || isAbsolute(name)) {
    return firstExecutable(extensions.map((ext) => resolve(name + ext)));
  }
  // Empty PATH entries mean "the current folder" to a shell; running whatever sits there is not wanted.
  const folders = (lookup(env, 'PATH') ?? '').split(delimiter).filter((folder) => folder !== '');
  return firstExecutable(folders.flatMap((folder) => extensions.map((ext) => resolve(join(folder, name + ext)))));
}

async function firstExecutable(candidates: readonly string[]): Promise<string | undefined> {
  for (const candidate of candidates) {
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Environment variable names are case-insensitive on Windows (`Path` vs `PATH`). */
function lookup(env: NodeJS.ProcessEnv, key: string): string | undefined {
  if (env[key] !== undefined || process.platform !== 'win32') return env[key];
  const found = Object.keys(env).find((k) => k.toUpperCase() === key);
  return found === undefined ? undefined : env[found];
}
