import type { ReadGuard } from '../workspace/read-guard.js';
import { WorkspaceRoots } from '../workspace/workspace-roots.js';
import { judgePathCall, ruleCovers, type PermissionRule } from './permission-rules.js';
import type { ToolName } from '../../shared/tool-catalogue.js';

/** The tool whose rules judge content shown by any other way (an @mention, a rules file). */
const READ_TOOL: ToolName = 'read_file';

/** Where the guard's paths are judged: as the task's permission rules judge a call's path. */
interface ReadGuardPlace {
  readonly cwd: string;
  readonly workspace?: WorkspaceRoots;
}

/**
 * The read guard of a task's permission rules: a file is withheld when a deny or ask rule would
 * stop `read_file` (or the tool named) on it. The path is judged by judgePathCall, the same code
 * that judges a call, so links, `..`, absolute paths and other folders hold as they do there.
 */
export function createReadGuard(rules: readonly PermissionRule[], place: ReadGuardPlace): ReadGuard {
  // Allow rules never withhold; leaving them out also keeps an allow from hiding nothing.
  const stopping = rules.filter((rule) => rule.effect !== 'allow');
  const covers = (tool: string = READ_TOOL) => stopping.some((rule) => ruleCovers(rule, tool, {}));
  // Opened once, remembering folders' real paths: a search judges thousands of files. A guard is made per call.
  const workspace = (place.workspace ?? WorkspaceRoots.single(place.cwd)).remembersFolders();
  return {
    covers,
    refusal(path, tool = READ_TOOL) {
      if (!covers(tool)) return undefined;
      const verdict = judgePathCall(stopping, { tool, params: { path }, cwd: place.cwd, workspace });
      if (!verdict || verdict.effect === 'allow') return undefined;
      return { effect: verdict.effect, rule: verdict.rule.rule, source: verdict.rule.source };
    },
  };
}

/** The guard of rules given as a list or as a function read now. */
export function readGuardOf(rules: readonly PermissionRule[] | (() => readonly PermissionRule[]) | undefined, place: ReadGuardPlace): ReadGuard {
  return createReadGuard(typeof rules === 'function' ? rules() : (rules ?? []), place);
}
