import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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
    for (const file of markdownFiles(folders.globalRulesDir)) parts.push({ label: `global rules: ${relative(folders.globalRulesDir, file)}`, text: readFileSync(file, 'utf8') });
  }
  const workspaceRules = join(folders.workspaceRoot, WORKSPACE_RULES_NAME);
  if (existsSync(workspaceRules)) {
    const files = statSync(workspaceRules).isDirectory() ? markdownFiles(workspaceRules) : [workspaceRules];
    for (const file of files) parts.push({ label: relative(folders.workspaceRoot, file), text: readFileSync(file, 'utf8') });
  }
  const agents = join(folders.workspaceRoot, 'AGENTS.md');
  if (existsSync(agents)) parts.push({ label: 'AGENTS.md', text: readFileSync(agents, 'utf8') });

  const filled = parts.filter((p) => p.text.trim() !== '');
  if (filled.length === 0) return { section: '', sources: [] };
  const body = filled.map((p) => `## ${p.label}\n\n${p.text.trim()}`).join('\n\n');
  return {
    section: `# User's rules\n\nThe user gave these instructions. Follow them unless they conflict with a direct request in the task.\n\n${body}`,
    sources: filled.map((p) => p.label),
  };
}

function markdownFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(md|markdown|txt)$/i.test(name))
    .map((name) => join(dir, name))
    .filter((file) => statSync(file).isFile())
    .sort();
}
