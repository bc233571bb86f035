import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { NotRegularFileError, readRegularFileSync } from '../workspace/regular-file.js';

/** The rules the user wrote for the model, ready for the system prompt. */
export interface LoadedRules {
  /** The prompt section, or '' when there are no rules. */
  readonly section: string;
  /** The files read, for display. */
  readonly sources: readonly string[];
}

/** Folder (inside the workspace) where new_rule writes and where rules files are read from. */
export const WORKSPACE_RULES_NAME = '.smithrules';

/**
 * Reads the global rules folder, then the workspace's `.smithrules` (a file, or a folder of
 * Markdown files) and `AGENTS.md`. Read on every request so a new rule applies at once.
 */
export function loadRules(folders: { readonly workspaceRoot: string; readonly globalRulesDir?: string }): LoadedRules {
  const parts: { label: string; text: string }[] = [];
  if (folders.globalRulesDir) {
    for (const file of markdownFiles(folders.globalRulesDir)) parts.push({ label: `global rules: ${relative(folders.globalRulesDir, file)}`, text: readRule(file) });
  }
  const workspaceRules = join(folders.workspaceRoot, WORKSPACE_RULES_NAME);
  if (existsSync(workspaceRules)) {
    const files = statSync(workspaceRules).isDirectory() ? markdownFiles(workspaceRules) : [workspaceRules];
    for (const file of files) parts.push({ label: relative(folders.workspaceRoot, file), text: readRule(file) });
  }
  const agents = join(folders.workspaceRoot, 'AGENTS.md');
  if (existsSync(agents)) parts.push({ label: 'AGENTS.md', text: readRule(agents) });

  const filled = parts.filter((p) => p.text.trim() !== '');
  if (filled.length === 0) return { section: '', sources: [] };
  const body = filled.map((p) => `## ${p.label}\n\n${p.text.trim()}`).join('\n\n');
  return {
    section: `# User's rules\n\nThe user gave these instructions. Follow them unless they conflict with a direct request in the task.\n\n${body}`,
    sources: filled.map((p) => p.label),
  };
}

// A rules path that is a FIFO, socket or device is no rule: skipped rather than read, which could
// block forever.
function readRule(file: string): string {
  try {
    return readRegularFileSync(file).toString('utf8');
  } catch (error) {
    if (error instanceof NotRegularFileError) return '';
    throw error;
  }
}

function markdownFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(md|markdown|txt)$/i.test(name))
    .map((name) => join(dir, name))
    .filter((file) => statSync(file).isFile())
    .sort();
}
