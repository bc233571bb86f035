import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import * as vscode from 'vscode';

/**
 * The ripgrep binary VS Code ships (under its app root, unpacked from the asar archive on some
 * builds), else `rg` on PATH; undefined when there is none.
 */
export async function findRipgrep(appRoot: string = vscode.env.appRoot, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const binary = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const shipped = ['node_modules', 'node_modules.asar.unpacked'].flatMap((modules) => [
    join(appRoot, modules, '@vscode', 'ripgrep', 'bin', binary),
    // Name of the package before VS Code 1.60.
    join(appRoot, modules, 'vscode-ripgrep', 'bin', binary),
  ]);
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, binary));
  for (const candidate of [...shipped, ...onPath]) {
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK).then(
    () => true,
    () => false,
  );
}
