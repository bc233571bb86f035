import type { ToolSpec } from '../tool-kit/tool-spec.js';
import { grantedGroups, groupRestriction, type Mode } from './mode.js';
import type { PlanAct } from '../../shared/plan-act.js';
import { groupsOffer, toolEntry } from '../../shared/tool-catalogue.js';

/**
 * The tools a call may use under this Plan/Act state and mode; the engine checks every call against it.
 * The Plan/Act states of a tool are its catalogue row's; a tool without a row (only tests build one) is
 * offered in Act mode alone, as Plan mode offers only what the catalogue says it may.
 */
export function allowedToolNames(specs: readonly ToolSpec[], mode: PlanAct, active: Mode): Set<string> {
  const groups = grantedGroups(active);
  const allowed = new Set<string>();
  for (const spec of specs) {
    if (!groupsOffer(groups, spec.name, spec.group)) continue;
    if (!(toolEntry(spec.name)?.planAct ?? ['act']).includes(mode)) continue;
    allowed.add(spec.name);
  }
  return allowed;
}

/** Why this mode may not edit the path, or undefined when it may. */
export function editRefusal(active: Mode, path: string): string | undefined {
  const restriction = groupRestriction(active, 'edit');
  if (!restriction || new RegExp(restriction.fileRegex).test(path)) return undefined;
  const what = restriction.description ? ` (${restriction.description})` : '';
  return `The ${active.name} mode may only edit files matching ${restriction.fileRegex}${what}; "${path}" does not match. Switch to a mode that may edit it, or edit a matching file.`;
}
