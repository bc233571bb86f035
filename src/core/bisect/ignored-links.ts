// The workspace's ignored entries (node_modules, .venv, build output …) linked into a state's
// scratch copy: checkpoints leave them out, so without them a test such as `npm test` fails on
// every state. What is left out is what the checkpoint walk leaves out (folder-walk.ts), the one
// decision; what .smithignore hides is never linked.
import { existsSync, lstatSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { walkFolders } from '../checkpoints/folder-walk.js';
import { loadSmithIgnore } from '../workspace/smith-ignore.js';

/** The entries of one real workspace folder that checkpoints leave out, by path relative to it ('/'-separated), outermost only. */
export async function leftOutEntries(root: string, signal?: AbortSignal): Promise<string[]> {
  if (!existsSync(root)) return [];
  const policy = await loadSmithIgnore(root);
  const found: string[] = [];
  await walkFolders(
    root,
    policy,
    undefined,
    {
      push: () => {},
      leftOut: (rel, absolute) => {
        // Hidden from commands by .smithignore: a link must not show it.
        if (!policy.isIgnored(absolute)) found.push(rel);
      },
    },
    signal,
  );
  return found;
}

/**
 * Links `real/<rel>` at `copy/<rel>` for each entry absent from the copy whose parent folder in
 * the copy is a real folder (never a link, which could lead out of the copy). An entry the state
 * has (or has as a file where the real one is a folder) is left as the state has it. Returns the
 * real paths the links lead to (resolved), which a sandbox must keep readable.
 */
export function linkLeftOut(real: string, copy: string, entries: readonly string[]): string[] {
  const targets: string[] = [];
  for (const rel of entries) {
    const parts = rel.split('/');
    if (!parentsAreFolders(copy, parts)) continue;
    const at = join(copy, ...parts);
    if (exists(at)) continue;
    const target = join(real, ...parts);
    let resolved: string;
    try {
      resolved = realpathSync(target);
    } catch {
      continue; // gone since the walk, or a dangling link
    }
    // To the resolved path: that is the one a sandbox binds, and a link on the way may not be visible there.
    symlinkSync(resolved, at);
    targets.push(resolved);
  }
  return targets;
}

function parentsAreFolders(copy: string, parts: readonly string[]): boolean {
  let path = copy;
  for (const part of parts.slice(0, -1)) {
    path = join(path, part);
    try {
      const stats = lstatSync(path);
      if (!stats.isDirectory() || stats.isSymbolicLink()) return false;
    } catch {
      return false; // the state has no such folder: nothing of it is linked
    }
  }
  return true;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
