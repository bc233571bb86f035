import { WorkspaceRoots } from '../workspace/workspace-roots.js';
import type { ResolvedPath } from '../workspace/workspace-paths.js';
import { mistake, type ToolContext, type ToolOutcome } from './tool-spec.js';

/** The workspace's folders a tool works in: all of a multi-root workspace, else `cwd` alone. */
export function workspaceOf(context: Pick<ToolContext, 'cwd' | 'workspace'>): WorkspaceRoots {
  return context.workspace ?? WorkspaceRoots.single(context.cwd);
}

/**
 * Resolves a path a tool was given, refusing what .smithignore excludes. Returns the path, or
 * the outcome to send back to the model.
 */
export function resolveToolPath(context: ToolContext, path: string): ResolvedPath | ToolOutcome {
  const target = workspaceOf(context).resolve(path);
  if (context.ignore.isIgnored(target.absolute)) {
    return mistake(
      `Access to ${target.display} is blocked by the ${context.ignore.source} file. Do not try to access it; work with other files or ask the user.`,
    );
  }
  return target;
}

/** Narrows resolveToolPath's answer. */
export function isOutcome(value: ResolvedPath | ToolOutcome): value is ToolOutcome {
  return 'kind' in value;
}
