// The CLI's worktree settings: `"worktree": {"parent": "...", "copyFiles": [...]}` in the user's
// settings.json in Smith's storage (the editor reads smith.worktree.* instead). A workspace's own
// .smith/settings.json cannot set them: a repository would decide where Smith writes and what it copies.
import { parse as parseJsonc, type ParseError, printParseErrorCode } from 'jsonc-parser/lib/esm/main.js';
import { parseWorktreeSettings } from '../core/worktrees/worktree-settings.js';
import type { WorktreeSettings } from '../core/worktrees/worktree-types.js';
import { readRegularFileSync } from '../core/workspace/regular-file.js';
import { userSettingsFile } from './cli-profiles.js';

/** The worktree settings of the user's settings file, and what was wrong with it. */
export function loadWorktreeSettings(storageDir: string): { settings: WorktreeSettings; problems: string[] } {
  const file = userSettingsFile(storageDir);
  let text: string;
  try {
    text = readRegularFileSync(file).toString('utf8');
  } catch (error) {
    return { settings: {}, problems: (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : [`${file}: ${(error as Error).message}`] };
  }
  const errors: ParseError[] = [];
  const json = parseJsonc(text, errors, { allowTrailingComma: true }) as { worktree?: unknown } | undefined;
  if (errors.length > 0)
    return { settings: {}, problems: [`${file}: not valid JSON (${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset})`] };
  return parseWorktreeSettings(typeof json === 'object' && json !== null ? json.worktree : undefined, file);
}
