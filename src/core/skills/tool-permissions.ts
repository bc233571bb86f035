import type { ToolSpec } from '../tool-kit/tool-spec.js';
import { grantedGroups, groupRestriction, type Skill } from './skill.js';
import type { Mode } from '../../shared/mode.js';
import { toolEntry } from '../../shared/tool-catalogue.js';

/**
 * The tools a call may use under this mode and skill; the engine checks every call against it.
 * The modes of a tool are its catalogue row's; a tool without a row (only tests build one) is
 * offered in Act mode alone, as Plan mode offers only what the catalogue says it may.
 */
export function allowedToolNames(specs: readonly ToolSpec[], mode: Mode, skill: Skill): Set<string> {
  const groups = grantedGroups(skill);
  const allowed = new Set<string>();
  for (const spec of specs) {
    if (spec.group !== 'interaction' && !groups.has(spec.group)) continue;
    if (!(toolEntry(spec.name)?.modes ?? ['act']).includes(mode)) continue;
    allowed.add(spec.name);
  }
  return allowed;
}

/** Why this skill may not edit the path, or undefined when it may. */
export function editRefusal(skill: Skill, path: string): string | undefined {
  const restriction = groupRestriction(skill, 'edit');
  if (!restriction || new RegExp(restriction.fileRegex).test(path)) return undefined;
  const what = restriction.description ? ` (${restriction.description})` : '';
  return `The ${skill.name} skill may only edit files matching ${restriction.fileRegex}${what}; "${path}" does not match. Switch to a skill that may edit it, or edit a matching file.`;
}
