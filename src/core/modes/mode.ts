import type { ToolGroup } from '../../shared/tool-catalogue.js';

/** A group a mode may use, optionally limited to files matching a pattern (edit group only). */
export type ModeGroupGrant = ToolGroup | { readonly group: ToolGroup; readonly fileRegex: string; readonly description?: string };

/** A named working profile: role, instructions, and which tools it may use (Roo Code calls them custom modes). */
export interface Mode {
  readonly slug: string;
  readonly name: string;
  /** Who the model is in this mode; opens the system prompt. */
  readonly roleDefinition: string;
  /** When to choose this mode (Roo Code's `whenToUse`): the picker and the model's list of modes show it. */
  readonly whenToUse?: string;
  /** A short description for people (Roo Code's `description`); stands in for `whenToUse` when that is absent. */
  readonly description?: string;
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

/** Characters of a mode's summary shown in lists (the file may say more). */
const SUMMARY_CHARS = 200;

/**
 * When to use the mode, in one line: its `whenToUse`, else its `description`, else the first
 * sentence of its role (as Roo Code falls back); white space folded, at most 200 characters.
 */
export function modeSummary(mode: Mode): string {
  const text = [mode.whenToUse, mode.description].find((t) => t !== undefined && t.trim() !== '') ?? firstSentence(mode.roleDefinition);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}

function firstSentence(text: string): string {
  const match = /^[\s\S]*?[.!?](?=\s|$)/.exec(text.trim());
  return match ? match[0] : text;
}
