import { discoverSkills } from './skill-discovery.js';
import { type SkillLocationInput, type SkillScope, skillLocations } from './skill-locations.js';
import type { SkillManifest } from './skill-manifest.js';

/** A skill the model may be offered: its SKILL.md read and valid. */
export interface AgentSkill extends SkillManifest {
  /** The skill's folder (its scripts and reference files are here). */
  readonly dir: string;
  /** Its SKILL.md. */
  readonly file: string;
  /** The skills folder it came from, as lists name it (`.claude/skills`, `~/.claude/skills`). */
  readonly location: string;
  readonly scope: SkillScope;
}

/** One skill folder as the lists show it: offered to the model or not, and why not. */
export interface SkillListEntry {
  readonly name: string;
  readonly description?: string;
  readonly location: string;
  readonly scope: SkillScope;
  readonly dir: string;
  /** Offered to the model this turn. */
  readonly offered: boolean;
  /** The user turned it off (by name). */
  readonly disabled: boolean;
  /** Why it is not offered, or what was wrong in its optional fields. */
  readonly note?: string;
}

/** The skills of a workspace: those offered to the model, and every folder found, for lists. */
export interface SkillCatalog {
  /** Offered to the model, by precedence: valid, enabled, not shadowed, trusted. */
  readonly offered: readonly AgentSkill[];
  readonly entries: readonly SkillListEntry[];
  /** Folders and files that could not be read, one line each. */
  readonly notes: readonly string[];
}

/** What decides which skills are offered. */
export interface SkillCatalogInput extends SkillLocationInput {
  /** Names the user turned off: a disabled name is offered from no folder. */
  readonly disabled?: ReadonlySet<string>;
  /** The workspace is trusted: its skills may be offered (the user's and the flags' always are). */
  readonly workspaceTrusted: boolean;
}

/** What a workspace's skills wait for when it is not trusted. */
export const UNTRUSTED_NOTE = 'not offered: this workspace is not trusted (trust it to use its skills)';

/**
 * Finds every skill (see skillLocations for where and in which order) and decides which are
 * offered. For each name the first usable folder wins (a valid SKILL.md, and for a workspace
 * folder a trusted workspace); later folders of that name are shadowed. A disabled name is not
 * offered at all: turning a skill off never lets another folder's skill of the name take its place.
 */
export function loadSkillCatalog(input: SkillCatalogInput): SkillCatalog {
  const discovered = discoverSkills(skillLocations(input), input.workspaceRoots);
  const winners = new Map<string, AgentSkill>();
  const entries: SkillListEntry[] = [];
  for (const found of discovered.found) {
    const { location } = found;
    const base = { location: location.label, scope: location.scope, dir: found.dir };
    if ('problem' in found.manifest) {
      const name = found.dir.split(/[\\/]/).pop() ?? found.dir;
      entries.push({ name, ...base, offered: false, disabled: false, note: `not used: its SKILL.md ${found.manifest.problem}` });
      continue;
    }
    const manifest = found.manifest;
    const disabled = input.disabled?.has(manifest.name) === true;
    const shown = { name: manifest.name, description: manifest.description, ...base, disabled };
    const winner = winners.get(manifest.name);
    if (winner) {
      entries.push({ ...shown, offered: false, note: `not offered: the skill of the same name in ${winner.location} comes first` });
      continue;
    }
    if (!manifest.modelInvocable) {
      entries.push({ ...shown, offered: false, note: 'not offered: its disable-model-invocation is true, and Smith has no way to invoke a skill by hand' });
      continue;
    }
    if (location.scope === 'workspace' && !input.workspaceTrusted) {
      entries.push({ ...shown, offered: false, note: UNTRUSTED_NOTE });
      continue;
    }
    winners.set(manifest.name, { ...manifest, dir: found.dir, file: found.file, location: location.label, scope: location.scope });
    const warnings = manifest.warnings.length > 0 ? { note: manifest.warnings.join('; ') } : {};
    entries.push({ ...shown, offered: !disabled, ...(disabled ? { note: 'turned off' } : warnings) });
  }
  const offered = [...winners.values()].filter((skill) => input.disabled?.has(skill.name) !== true);
  return { offered, entries, notes: discovered.notes };
}
