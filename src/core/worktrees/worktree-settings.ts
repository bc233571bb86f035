// The user's worktree settings, as the editor's `smith.worktree.parent` / `smith.worktree.copyFiles`
// or the `"worktree": {"parent", "copyFiles"}` object of the CLI's settings.json give them: checked
// here once, whatever wrote them.
import type { WorktreeSettings } from './worktree-types.js';

/** The settings `value` holds, and what was wrong with it (`source` names it in each problem). */
export function parseWorktreeSettings(value: unknown, source: string): { settings: WorktreeSettings; problems: string[] } {
  const problems: string[] = [];
  if (value === undefined || value === null) return { settings: {}, problems };
  if (typeof value !== 'object' || Array.isArray(value)) return { settings: {}, problems: [`${source}: "worktree" must be an object; not used`] };
  const { parent, copyFiles } = value as { parent?: unknown; copyFiles?: unknown };
  const settings: { parent?: string; copyFiles?: string[] } = {};
  if (typeof parent === 'string' && parent.trim() !== '') settings.parent = parent.trim();
  else if (parent !== undefined && parent !== '') problems.push(`${source}: worktree.parent must be a folder's path; not used`);
  if (Array.isArray(copyFiles) && copyFiles.every((item) => typeof item === 'string')) settings.copyFiles = copyFiles.filter((item) => item.trim() !== '');
  else if (copyFiles !== undefined) problems.push(`${source}: worktree.copyFiles must be a list of patterns (".env", "config/*.local.json"); not used`);
  return { settings, problems };
}
