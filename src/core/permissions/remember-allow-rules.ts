import { join } from 'node:path';
import { addAllowRules } from './allow-rules.js';
import { loadPermissionSettings, WORKSPACE_SETTINGS_FILE } from './settings-files.js';
import { WorkspaceTrust } from '../mcp/workspace-trust.js';

/** Where "always allow" writes: the user's settings file (every workspace) or this workspace's. */
export type AllowScope = 'user' | 'workspace';

/**
 * Writes the rules that allow a call again to the chosen settings file; returns the file. A
 * workspace file's allow rules apply only once trusted: the user's own addition keeps a trusted
 * file trusted, but is refused when the file holds allow rules or hooks not trusted yet.
 */
export function rememberAllowRules(
  rules: readonly string[],
  scope: AllowScope,
  where: { readonly storageDir: string; readonly cwd: string | undefined },
): string {
  if (scope === 'user' || !where.cwd) {
    const file = join(where.storageDir, 'settings.json');
    addAllowRules(file, rules);
    return file;
  }
  const trust = new WorkspaceTrust({ storageDir: where.storageDir });
  const read = () => loadPermissionSettings({ storageDir: where.storageDir, workspaceRoot: where.cwd ?? '', trust: trust.check });
  if (read().heldBack)
    throw new Error(
      `${WORKSPACE_SETTINGS_FILE} has allow rules or hooks you have not trusted yet: allow this for you instead, or trust the workspace's settings first.`,
    );
  const file = join(where.cwd, WORKSPACE_SETTINGS_FILE);
  addAllowRules(file, rules);
  const after = read().heldBack;
  if (after) trust.remember(after.trustKey, after.fingerprint, true);
  return file;
}
