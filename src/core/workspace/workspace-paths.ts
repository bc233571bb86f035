import { WorkspaceRoots, type ResolvedPath } from './workspace-roots.js';

export type { ResolvedPath };

/**
 * Resolves a path the model gave, against one folder or all folders of a workspace. Symlinks are
 * followed for the part that exists, so a link inside the workspace that points outside counts
 * as outside.
 */
export function resolveWorkspacePath(workspace: string | WorkspaceRoots, input: string): ResolvedPath {
  return (typeof workspace === 'string' ? WorkspaceRoots.single(workspace) : workspace).resolve(input);
}
