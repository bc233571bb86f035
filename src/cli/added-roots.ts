import { resolve } from 'node:path';
import { WorkspaceRootError, WorkspaceRoots, type WorkspaceFolderInput } from '../core/workspace/workspace-roots.js';
import { UsageError } from './usage-error.js';

/**
 * The folders `--add-dir` adds beside the primary one, checked before anything starts: a folder
 * that does not exist (or is a file) is a usage error naming it.
 */
export function addedRoots(primary: string, dirs: readonly string[]): WorkspaceFolderInput[] {
  const folders = dirs.map((dir) => ({ path: resolve(dir) }));
  try {
    WorkspaceRoots.open(primary, folders);
  } catch (error) {
    if (error instanceof WorkspaceRootError) throw new UsageError(`--add-dir: ${error.message}`);
    throw error;
  }
  return folders;
}
