import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isInside } from '../workspace/contained-files.js';

// Where Agent Skills are found: Smith's own folders and the folders other agents' users already
// have, so their skills work unchanged. One list; discovery, the docs and every UI read it.

/** Who put a skills folder there: the repository (trust applies), the user, or this run's flags. */
export type SkillScope = 'workspace' | 'user' | 'extra';

/** One folder whose sub-folders are skills. */
export interface SkillLocation {
  /** How the folder is named in lists: `.claude/skills`, `~/.claude/skills`, `--skill-dir /x`. */
  readonly label: string;
  readonly path: string;
  readonly scope: SkillScope;
}

/** Skills folders in each workspace folder, in order of precedence: Smith's, Claude Code's, Codex's, Cline's (two), Roo Code's. */
export const WORKSPACE_SKILL_FOLDERS: readonly string[] = [
  '.smith/skills',
  '.claude/skills',
  '.agents/skills',
  '.cline/skills',
  '.clinerules/skills',
  '.roo/skills',
];

/** Skills folders in the home folder, after `<storage>/skills`: Claude Code's, Codex's (two), Cline's, Roo Code's. */
export const USER_SKILL_FOLDERS: readonly string[] = ['.claude/skills', '.agents/skills', '.codex/skills', '.cline/skills', '.roo/skills'];

/** What decides where skills are looked for. */
export interface SkillLocationInput {
  /** The workspace folders, the primary one first. */
  readonly workspaceRoots: readonly string[];
  /** Smith's storage folder: `<storage>/skills` is the user's own. */
  readonly storageDir: string;
  /** The home folder (default: the user's). */
  readonly homeDir?: string;
  /** `--skill-dir` folders of this run, in the order given. */
  readonly skillDirs?: readonly string[];
  /** The folders the settings add (`smith.skillFolders`, `skillFolders` in settings.json). */
  readonly settingFolders?: readonly string[];
}

/**
 * Every skills folder, highest precedence first: `--skill-dir` folders, the workspace's folders
 * (primary folder first), the settings' folders, then the user's. Where two skills share a name the
 * first one found wins, so a repository's skill replaces the user's skill of the same name.
 */
export function skillLocations(input: SkillLocationInput): SkillLocation[] {
  const home = input.homeDir ?? homedir();
  const locations: SkillLocation[] = [];
  for (const dir of input.skillDirs ?? []) locations.push({ label: `--skill-dir ${dir}`, path: dir, scope: 'extra' });
  for (const [index, root] of input.workspaceRoots.entries()) {
    for (const rel of WORKSPACE_SKILL_FOLDERS) locations.push({ label: index === 0 ? rel : `${join(root, rel)}`, path: join(root, rel), scope: 'workspace' });
  }
  for (const dir of input.settingFolders ?? []) {
    const path = dir.startsWith('~/') ? join(home, dir.slice(2)) : resolve(input.workspaceRoots[0] ?? home, dir);
    // A workspace's own settings can name folders too: one inside a workspace folder is the repository's, and trust applies.
    const inWorkspace = input.workspaceRoots.some((root) => isInside(resolve(path), resolve(root)));
    locations.push({ label: dir, path, scope: inWorkspace ? 'workspace' : 'extra' });
  }
  locations.push({ label: 'Smith: skills', path: join(input.storageDir, 'skills'), scope: 'user' });
  for (const rel of USER_SKILL_FOLDERS) locations.push({ label: `~/${rel}`, path: join(home, rel), scope: 'user' });
  return locations;
}
