import { loadSkillCatalog, type SkillCatalogInput } from '../core/skills/skill-catalog.js';
import type { PanelState } from '../shared/protocol.js';

/**
 * The Agent Skills as a new request would offer them: every skill folder found, where it comes
 * from, whether it is offered and why not, and what could not be read.
 */
export function panelSkills(input: SkillCatalogInput): NonNullable<PanelState['agentSkills']> {
  const catalog = loadSkillCatalog(input);
  const skills = catalog.entries.map((entry) => ({
    name: entry.name,
    ...(entry.description ? { description: entry.description } : {}),
    location: entry.location,
    scope: entry.scope,
    offered: entry.offered,
    disabled: entry.disabled,
    ...(entry.note ? { note: entry.note } : {}),
  }));
  return { skills, notes: [...catalog.notes] };
}
