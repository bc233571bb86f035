import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A path named by the model, resolved against the workspace with symlinks followed. */
export interface ResolvedPath {
  /** Absolute path as the tools use it (real path of the longest existing prefix). */
  readonly absolute: string;
  /** Path to show: workspace-relative with forward slashes, or absolute when outside. */
  readonly display: string;
  readonly insideWorkspace: boolean;
}

/**
 * Resolves a path the model gave. Symlinks are followed for the part that exists, so a link
 * inside the workspace that points outside counts as outside.
 */
export function resolveWorkspacePath(workspaceRoot: string, input: string): ResolvedPath {
  const root = realPathOfExisting(resolve(workspaceRoot));
  const requested = isAbsolute(input) ? resolve(input) : resolve(workspaceRoot, input);
  const absolute = realPathOfExisting(requested);
  const rel = relative(root, absolute);
  const insideWorkspace = rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  return {
    absolute,
    display: insideWorkspace ? rel.split(sep).join('/') || '.' : absolute,
    insideWorkspace,
  };
}

/** The real path of the longest existing prefix, with the not-yet-existing rest appended. */
function realPathOfExisting(path: string): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync.native(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}
