import type { ToolGroup } from '../../shared/tool-catalogue.js';

/** A group a mode may use, optionally limited to files matching a pattern (edit group only). */
type ModeGroupGrant = ToolGroup | { readonly group: ToolGroup; readonly fileRegex: string; readonly description?: string };

/** A named working profile: role, instructions, and which tools it may use (Roo Code calls them custom modes). */
export interface Mode {
  readonly slug: string;
  readonly name: string;
  /** Who the model is in this mode; opens the system prompt. */
  readonly roleDefinition: string;
  readonly customInstructions?: string;
  readonly groups: readonly ModeGroupGrant[];
  /** Where the mode was defined, for messages. */
  readonly source: 'built-in' | string;
}

/** The groups a mode grants, without their restrictions. */
export function grantedGroups(mode: Mode): Set<ToolGroup> {
  return new Set(mode.groups.map((g) => (typeof g === 'string' ? g : g.group)));
}

/** The file pattern limiting a group, if any. */
export function groupRestriction(mode: Mode, group: ToolGroup): { readonly fileRegex: string; readonly description?: string } | undefined {
  for (const grant of mode.groups) {
    if (typeof grant !== 'string' && grant.group === group) return grant;
  }
  return undefined;
}
