import { createHash } from 'node:crypto';
import { type Dir, opendirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ContainedFiles, describeSkipped, type LoaderCaps } from '../workspace/contained-files.js';
import { parseSkillManifest, type SkillManifest } from './skill-manifest.js';
import type { SkillLocation } from './skill-locations.js';

/** The file that makes a folder a skill. */
export const SKILL_FILE = 'SKILL.md';

/** A skill folder found in a skills folder, read or not. */
export interface FoundSkill {
  readonly location: SkillLocation;
  /** The skill's folder (as named, links not followed). */
  readonly dir: string;
  /** Its SKILL.md. */
  readonly file: string;
  /** The SKILL.md read, or why the skill cannot be used. */
  readonly manifest: SkillManifest | { readonly problem: string };
  /** SHA-256 of the SKILL.md text read (absent when it could not be read). */
  readonly sha256?: string;
}

/** Every skill folder in the locations, in their order, and what could not be read. */
export interface DiscoveredSkills {
  readonly found: readonly FoundSkill[];
  /** One line each: `.claude/skills/x/SKILL.md: links outside the workspace; not read`. */
  readonly notes: readonly string[];
}

/**
 * What discovery reads at most: a SKILL.md of 256 KiB (a larger one is not used), 8 MiB of them in
 * all, 1,000 entries of one skills folder. Bounds for a repository that ships a huge, endless or
 * binary SKILL.md, or ten thousand skills.
 */
export const SKILL_DISCOVERY_CAPS: LoaderCaps = { fileBytes: 256 * 1024, totalBytes: 8 * 1024 * 1024, entries: 1000 };

/**
 * Reads `<location>/<name>/SKILL.md` in every location (one level down, as Claude Code, Cline and
 * Codex look). A workspace location's files are read only where their real path lies inside a
 * workspace folder (ContainedFiles): a link to `~/.ssh` or `/` is noted, never followed out. The
 * user's folders, and folders named by flag or setting, are read wherever their links point.
 * Hidden folders (`.git`, `.system`) are not skills.
 */
export function discoverSkills(
  locations: readonly SkillLocation[],
  workspaceRoots: readonly string[],
  caps: LoaderCaps = SKILL_DISCOVERY_CAPS,
): DiscoveredSkills {
  const files = new ContainedFiles({
    within: workspaceRoots,
    trusted: locations.filter((l) => l.scope !== 'workspace').map((l) => resolve(l.path)),
    caps,
  });
  const found: FoundSkill[] = [];
  const listingNotes: string[] = [];
  for (const location of locations) {
    if (!files.isFolder(location.path)) continue;
    const { names, cut } = skillFolderNames(location.path, caps.entries);
    if (cut) listingNotes.push(`${location.label}: more than ${caps.entries} entries; the rest are not read`);
    for (const name of names) {
      const dir = join(location.path, name);
      const file = join(dir, SKILL_FILE);
      if (!files.present(file)) continue;
      const before = files.skipped.length;
      const text = files.readText(file, 'skip');
      if (text === undefined) {
        const why = files.skipped.slice(before).find((entry) => entry.path === file)?.reason;
        if (why) found.push({ location, dir, file, manifest: { problem: why } });
        continue;
      }
      found.push({ location, dir, file, manifest: parseSkillManifest(text, name), sha256: createHash('sha256').update(text).digest('hex') });
    }
  }
  const root = workspaceRoots[0];
  const reported = new Set(found.filter((f) => 'problem' in f.manifest).map((f) => f.file));
  const notes = [...listingNotes, ...files.skipped.filter((entry) => !reported.has(entry.path)).map((entry) => describeSkipped(entry, root))];
  return { found, notes };
}

/** The names in a skills folder, sorted, at most `cap` looked at; hidden names left out. */
function skillFolderNames(dir: string, cap: number): { names: string[]; cut: boolean } {
  const names: string[] = [];
  let handle: Dir;
  try {
    handle = opendirSync(dir);
  } catch {
    return { names, cut: false };
  }
  let examined = 0;
  let cut = false;
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (++examined > cap) {
        cut = true;
        break;
      }
      if (!entry.name.startsWith('.') && !entry.isFile()) names.push(entry.name);
    }
  } catch {
    // An unreadable folder lists what was read before.
  } finally {
    handle.closeSync();
  }
  return { names: names.sort(), cut };
}
