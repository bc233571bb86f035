import { basename, join } from 'node:path';
import { ContainedFiles, type LoaderCaps } from '../workspace/contained-files.js';
import { parseYaml } from '../workspace/yaml.js';
import { z } from 'zod';
import { BUILT_IN_MODES } from './built-in-modes.js';
import type { Mode } from './mode.js';

const GROUPS = ['read', 'edit', 'command', 'mcp', 'browser', 'interaction'] as const;

const grantSchema = z.union([z.enum(GROUPS), z.object({ group: z.enum(GROUPS), fileRegex: z.string().min(1), description: z.string().optional() }).strict()]);

const modeSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes'),
    name: z.string().min(1),
    roleDefinition: z.string().min(1),
    customInstructions: z.string().optional(),
    groups: z.array(grantSchema).min(1),
  })
  .strict();

// `skills:` is how a list was written before modes had their name; such files still load.
const listSchema = z.union([z.object({ modes: z.array(modeSchema) }).strict(), z.object({ skills: z.array(modeSchema) }).strict()]);

/** Every mode available, a clear message for each file that could not be used, and notes on files in a deprecated place. */
export interface ModeCatalog {
  readonly modes: readonly Mode[];
  readonly errors: readonly string[];
  readonly notes: readonly string[];
}

/** Where modes are read from: Smith's storage (`<storage>/modes`) and the workspace (`.smith/modes`). */
export interface ModeFolders {
  /** Smith's storage folder; its `modes/` (and the older `skills/`) hold the user's own modes. */
  readonly storageDir?: string;
  readonly workspaceRoot?: string;
}

/** Where mode files lived before modes had their name: `skills/` (now Agent Skills' folder, whose sub-folders are never modes). */
const OLDER_FOLDER = 'skills';

/** What the mode loader reads at most: 256 KiB of one file (a larger one is skipped), 1 MiB in all, 1,000 entries per folder. */
const MODE_CAPS: LoaderCaps = { fileBytes: 256 * 1024, totalBytes: 1024 * 1024, entries: 1000 };

/** A folder of mode files, and whether it is the older place (`skills/`), which still loads with a note. */
interface ModeDir {
  readonly dir: string;
  readonly label: string;
  readonly moveTo?: string;
}

/** The folders in load order: the storage's, then the workspace's; in each place the older `skills/` first, so `modes/` wins. */
function modeDirs(folders: ModeFolders): ModeDir[] {
  const dirs: ModeDir[] = [];
  if (folders.storageDir) {
    const legacy = join(folders.storageDir, OLDER_FOLDER);
    dirs.push({ dir: legacy, label: legacy, moveTo: join(folders.storageDir, 'modes') });
    dirs.push({ dir: join(folders.storageDir, 'modes'), label: join(folders.storageDir, 'modes') });
  }
  if (folders.workspaceRoot) {
    dirs.push({ dir: join(folders.workspaceRoot, '.smith', OLDER_FOLDER), label: `.smith/${OLDER_FOLDER}`, moveTo: '.smith/modes' });
    dirs.push({ dir: join(folders.workspaceRoot, '.smith', 'modes'), label: '.smith/modes' });
  }
  return dirs;
}

/**
 * Loads modes: built-in, then the storage's `modes/`, then the workspace's `.smith/modes`; a later
 * one with the same slug replaces an earlier one. Mode files found directly in a `skills/` folder
 * (where they lived before) still load, with a note to move them; folders there (Agent Skills) are
 * not modes and are left alone. A broken file is reported and skipped; a workspace file is read
 * only where its real path lies inside the workspace.
 */
export function loadModes(folders: ModeFolders): ModeCatalog {
  const bySlug = new Map<string, Mode>(BUILT_IN_MODES.map((m) => [m.slug, m]));
  const errors: string[] = [];
  const notes: string[] = [];
  const files = new ContainedFiles({
    within: folders.workspaceRoot ? [folders.workspaceRoot] : [],
    trusted: folders.storageDir ? [folders.storageDir] : [],
    caps: MODE_CAPS,
  });
  for (const { dir, label, moveTo } of modeDirs(folders)) {
    const found = files.listFiles(dir, { recursive: false, match: (name) => /\.(ya?ml|json)$/i.test(name) });
    if (moveTo && found.length > 0)
      notes.push(`Mode files in ${label} are deprecated; move them to ${moveTo}: ${found.map((f) => basename(f.path)).join(', ')}`);
    for (const { path } of found) {
      const text = files.readText(path, 'skip');
      if (text === undefined) continue;
      const loaded = readModeFile(path, text);
      if (typeof loaded === 'string') errors.push(loaded);
      else for (const mode of loaded) bySlug.set(mode.slug, mode);
    }
  }
  errors.push(...files.skipped.map((entry) => `Mode file ${entry.path} could not be read: ${entry.reason}`));
  return { modes: [...bySlug.values()], errors, notes };
}

function readModeFile(file: string, text: string): Mode[] | string {
  let data: unknown;
  try {
    data = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    return `Mode file ${file} could not be read: ${(error as Error).message}`;
  }
  // A file holds one mode, or a list under `modes:`; choosing the schema first keeps errors precise.
  const isList = typeof data === 'object' && data !== null && ('modes' in data || 'skills' in data);
  const parsed = isList ? listSchema.safeParse(data) : modeSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : '(top level)';
    return `Mode file ${file} is invalid at ${where}: ${issue.message}`;
  }
  const value = parsed.data;
  const modes = 'modes' in value ? value.modes : 'skills' in value ? value.skills : [value as z.infer<typeof modeSchema>];
  for (const mode of modes) {
    for (const grant of mode.groups) {
      if (typeof grant === 'string') continue;
      try {
        new RegExp(grant.fileRegex);
      } catch (error) {
        return `Mode file ${file}: mode "${mode.slug}" has an invalid fileRegex: ${(error as Error).message}`;
      }
    }
  }
  return modes.map((mode) => ({ ...mode, source: file }) as Mode);
}
