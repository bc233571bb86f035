import type { ToolGroup } from '../../shared/tool-catalogue.js';

/** A group a skill may use, optionally limited to files matching a pattern (edit group only). */
type SkillGroupGrant = ToolGroup | { readonly group: ToolGroup; readonly fileRegex: string; readonly description?: string };

/** A named working profile: role, instructions, and which tools it may use (skills are Smith's custom modes). */
export interface Skill {
  readonly slug: string;
  readonly name: string;
  /** Who the model is in this skill; opens the system prompt. */
  readonly roleDefinition: string;
  readonly customInstructions?: string;
  readonly groups: readonly SkillGroupGrant[];
  /** Where the skill was defined, for messages. */
  readonly source: 'built-in' | string;
}

/** The groups a skill grants, without their restrictions. */
export function grantedGroups(skill: Skill): Set<ToolGroup> {
  return new Set(skill.groups.map((g) => (typeof g === 'string' ? g : g.group)));
}

/** The file pattern limiting a group, if any. */
export function groupRestriction(skill: Skill, group: ToolGroup): { readonly fileRegex: string; readonly description?: string } | undefined {
  for (const grant of skill.groups) {
    if (typeof grant !== 'string' && grant.group === group) return grant;
  }
  return undefined;
}
