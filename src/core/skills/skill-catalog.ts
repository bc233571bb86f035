import { createHash } from 'node:crypto';
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
  /** The workspace's own skills, when it has any: what a trust answer is given for, and whether it is trusted. */
  readonly workspace?: WorkspaceSkills;
}

/** A workspace's skill files as one trust question sees them. */
export interface WorkspaceSkills {
  /** SHA-256 over every workspace SKILL.md's path and content: an added, removed or changed file asks again. */
  readonly fingerprint: string;
  /** `name (location)` of each. */
  readonly skills: readonly string[];
  readonly trusted: boolean;
}

/** What decides which skills are offered. */
export interface SkillCatalogInput extends SkillLocationInput {
  /** Names the user turned off: a disabled name is offered from no folder. */
  readonly disabled?: ReadonlySet<string>;
  /**
   * Whether the workspace's skills may be offered, for these exact files (`fingerprint`, see
   * WorkspaceSkills); the user's and the flags' always are.
   */
  readonly workspaceTrusted: (fingerprint: string) => boolean;
}

/** What a workspace's skills wait for when it is not trusted. */
export const UNTRUSTED_NOTE = "not offered: this workspace's skills are not trusted (trust them to use them)";

/**
 * Finds every skill (see skillLocations for where and in which order) and decides which are
 * offered. For each name the first usable folder wins (a valid SKILL.md, and for a workspace
 * folder a trusted workspace); later folders of that name are shadowed. A disabled name is not
 * offered at all: turning a skill off never lets another folder's skill of the name take its place.
 */
export function loadSkillCatalog(input: SkillCatalogInput): SkillCatalog {
  const discovered = discoverSkills(skillLocations(input), input.workspaceRoots);
  const inWorkspace = discovered.found.filter((found) => found.location.scope === 'workspace');
  const fingerprint = createHash('sha256')
    .update(JSON.stringify(inWorkspace.map((found) => [found.file, found.sha256 ?? null])))
    .digest('hex');
  const trusted = inWorkspace.length > 0 && input.workspaceTrusted(fingerprint);
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
    if (location.scope === 'workspace' && !trusted) {
      entries.push({ ...shown, offered: false, note: UNTRUSTED_NOTE });
      continue;
    }
    winners.set(manifest.name, { ...manifest, dir: found.dir, file: found.file, location: location.label, scope: location.scope });
    const warnings = manifest.warnings.length > 0 ? { note: manifest.warnings.join('; ') } : {};
    entries.push({ ...shown, offered: !disabled, ...(disabled ? { note: 'turned off' } : warnings) });
  }
  const offered = [...winners.values()].filter((skill) => input.disabled?.has(skill.name) !== true);
  const names = inWorkspace.map(
    (found) => `${'name' in found.manifest ? found.manifest.name : (found.dir.split(/[\\/]/).pop() ?? found.dir)} (${found.location.label})`,
  );
  const workspace = inWorkspace.length > 0 ? { workspace: { fingerprint, skills: names, trusted } } : {};
  return { offered, entries, notes: discovered.notes, ...workspace };
}
