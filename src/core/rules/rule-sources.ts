// Where rules come from: Smith's own files and the files other agents' users already have, so
// those work unchanged. One list; the loader, the prompt and every UI that lists rules read it.

/** How a location holds rules. */
type RuleLocationKind = 'file' | 'folder' | 'file-or-folder';

/** One place in the workspace that may hold rules. */
export interface RuleLocation {
  /** Workspace-relative; `{mode}` stands for the active mode's slug (Roo Code's per-mode rules). */
  readonly path: string;
  readonly kind: RuleLocationKind;
  /** Sub-folders of a rules folder that hold something else (Cline's workflows are commands). */
  readonly skipFolders?: readonly string[];
  /** Read only when none of these locations holds a rules file (Roo Code's fallback files for a mode). */
  readonly onlyWithout?: readonly string[];
}

/** Smith's own workspace rules: a file, or a folder where new_rule writes. */
export const WORKSPACE_RULES_NAME = '.smithrules';

/**
 * Workspace rules, in the order they enter the prompt (later ones are more specific and win a
 * conflict): Smith's, then the other agents' files, then the active mode's. Roo Code's single files are its fallbacks, read as
 * it reads them: `.roorules` only where `.roo/rules/` holds no file, `.roorules-{mode}` only where
 * `.roo/rules-{mode}/` holds none, and `.clinerules-{mode}` only where neither of those does.
 */
export const WORKSPACE_RULE_LOCATIONS: readonly RuleLocation[] = [
  { path: WORKSPACE_RULES_NAME, kind: 'file-or-folder' },
  { path: 'AGENTS.md', kind: 'file' },
  { path: 'CLAUDE.md', kind: 'file' },
  { path: 'GEMINI.md', kind: 'file' },
  { path: '.clinerules', kind: 'file-or-folder', skipFolders: ['workflows'] },
  { path: '.cursorrules', kind: 'file' },
  { path: '.cursor/rules', kind: 'folder' },
  { path: '.windsurfrules', kind: 'file' },
  { path: '.github/copilot-instructions.md', kind: 'file' },
  { path: '.roo/rules', kind: 'folder' },
  { path: '.roorules', kind: 'file', onlyWithout: ['.roo/rules'] },
  { path: '.roo/rules-{mode}', kind: 'folder' },
  { path: '.roorules-{mode}', kind: 'file', onlyWithout: ['.roo/rules-{mode}'] },
  { path: '.clinerules-{mode}', kind: 'file', onlyWithout: ['.roo/rules-{mode}', '.roorules-{mode}'] },
];

/** Rules files read in the folders a task touches (closest to the file last, so it wins). */
export const NESTED_RULE_FILES: readonly string[] = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'];

/** The user-level rules files of Claude Code and Gemini CLI, relative to the home folder. */
export const USER_RULE_FILES: readonly string[] = ['.claude/CLAUDE.md', '.gemini/GEMINI.md'];

/** Files in a rules folder that are rules. */
export const RULE_FILE_PATTERN = /\.(md|mdc|markdown|txt)$/i;
