import { join } from 'node:path';
import { ContainedFiles, type LoaderCaps } from '../workspace/contained-files.js';
import { parseYaml } from '../workspace/yaml.js';
import { z } from 'zod';
import { BUILT_IN_SKILLS } from './built-in-skills.js';
import type { Skill } from './skill.js';

const GROUPS = ['read', 'edit', 'command', 'mcp', 'browser', 'interaction'] as const;

const grantSchema = z.union([z.enum(GROUPS), z.object({ group: z.enum(GROUPS), fileRegex: z.string().min(1), description: z.string().optional() }).strict()]);

const skillSchema = z
  .object({
    slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lowercase letters, digits and dashes'),
    name: z.string().min(1),
    roleDefinition: z.string().min(1),
    customInstructions: z.string().optional(),
    groups: z.array(grantSchema).min(1),
  })
  .strict();

const listSchema = z.object({ skills: z.array(skillSchema) }).strict();

/** Every skill available, and a clear message for each file that could not be used. */
export interface SkillCatalog {
  readonly skills: readonly Skill[];
  readonly errors: readonly string[];
}

/** What the skill loader reads at most: 256 KiB of one file (a larger one is skipped), 1 MiB in all, 1,000 entries per folder. */
const SKILL_CAPS: LoaderCaps = { fileBytes: 256 * 1024, totalBytes: 1024 * 1024, entries: 1000 };

/**
 * Loads skills: built-in, then the global folder, then the workspace's `.smith/skills`; a later
 * one with the same slug replaces an earlier one. A broken file is reported and skipped; a
 * workspace file is read only where its real path lies inside the workspace.
 */
export function loadSkills(folders: { readonly globalDir?: string; readonly workspaceRoot?: string }): SkillCatalog {
  const bySlug = new Map<string, Skill>(BUILT_IN_SKILLS.map((s) => [s.slug, s]));
  const errors: string[] = [];
  const files = new ContainedFiles({
    within: folders.workspaceRoot ? [folders.workspaceRoot] : [],
    trusted: folders.globalDir ? [folders.globalDir] : [],
    caps: SKILL_CAPS,
  });
  const dirs = [folders.globalDir, folders.workspaceRoot ? join(folders.workspaceRoot, '.smith', 'skills') : undefined];
  for (const dir of dirs) {
    if (!dir) continue;
    for (const { path } of files.listFiles(dir, { recursive: false, match: (name) => /\.(ya?ml|json)$/i.test(name) })) {
      const text = files.readText(path, 'skip');
      if (text === undefined) continue;
      const loaded = readSkillFile(path, text);
      if (typeof loaded === 'string') errors.push(loaded);
      else for (const skill of loaded) bySlug.set(skill.slug, skill);
    }
  }
  errors.push(...files.skipped.map((entry) => `Skill file ${entry.path} could not be read: ${entry.reason}`));
  return { skills: [...bySlug.values()], errors };
}

function readSkillFile(file: string, text: string): Skill[] | string {
  let data: unknown;
  try {
    data = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    return `Skill file ${file} could not be read: ${(error as Error).message}`;
  }
  // A file holds one skill, or a list under `skills:`; choosing the schema first keeps errors precise.
  const isList = typeof data === 'object' && data !== null && 'skills' in data;
  const parsed = isList ? listSchema.safeParse(data) : skillSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : '(top level)';
    return `Skill file ${file} is invalid at ${where}: ${issue.message}`;
  }
  const skills = 'skills' in parsed.data ? parsed.data.skills : [parsed.data as z.infer<typeof skillSchema>];
  for (const skill of skills) {
    for (const grant of skill.groups) {
      if (typeof grant === 'string') continue;
      try {
        new RegExp(grant.fileRegex);
      } catch (error) {
        return `Skill file ${file}: skill "${skill.slug}" has an invalid fileRegex: ${(error as Error).message}`;
      }
    }
  }
  return skills.map((skill) => ({ ...skill, source: file }) as Skill);
}
