import type { ToolSpec } from '../tool-kit/tool-spec.js';
import { grantedGroups, groupRestriction, type Mode } from './mode.js';
import type { PlanAct } from '../../shared/plan-act.js';
import { groupsOffer, toolEntry } from '../../shared/tool-catalogue.js';
import { matchFileRegex } from './file-regex.js';

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

/**
 * Why this mode may not edit the path, or undefined when it may. `path` is the path the edit
 * really changes, as the workspace shows it: relative to its folder with `/` separators, links
 * followed, `..` resolved (absolute when outside every folder). A call that names no path is
 * refused by a mode with a fileRegex, since nothing could be judged.
 */
export function editRefusal(active: Mode, path: string | undefined): string | undefined {
  const restriction = groupRestriction(active, 'edit');
  if (!restriction) return undefined;
  const what = restriction.description ? ` (${restriction.description})` : '';
  const limit = `The ${active.name} mode may only edit files matching ${restriction.fileRegex}${what}`;
  if (path === undefined) return `${limit}, and this call names no path. Nothing was changed.`;
  const verdict = matchFileRegex(restriction.fileRegex, path);
  if (verdict === 'match') return undefined;
  const shown = JSON.stringify(path.length > 300 ? `${path.slice(0, 300)}…` : path);
  if (verdict === 'no-match') return `${limit}; ${shown} does not match. Nothing was changed. Switch to a mode that may edit it, or edit a matching file.`;
  return `${limit}; ${shown} could not be judged: ${verdict.problem}. Nothing was changed.`;
}
