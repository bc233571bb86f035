import { join } from 'node:path';
import { loadRules } from '../core/rules/rules-loader.js';
import { touchedPaths } from '../core/rules/touched-paths.js';
import type { TaskEvent } from '../core/log/events.js';
import type { PanelState } from '../shared/protocol.js';

/**
 * The rules files as the open task's next request would use them (or a new task's, without one):
 * each with whether it applies, why not, and whether the user turned it off.
 */
export function panelRules(input: {
  readonly storageDir: string;
  readonly cwd: string | undefined;
  readonly modeSlug: string;
  readonly events: readonly TaskEvent[];
  readonly disabled: readonly string[];
}): NonNullable<PanelState['rules']> {
  if (!input.cwd) return [];
  const disabled = new Set(input.disabled);
  const rules = loadRules({
    workspaceRoot: input.cwd,
    modeSlug: input.modeSlug,
    touchedPaths: touchedPaths(input.events, input.cwd),
    globalRulesDir: join(input.storageDir, 'rules'),
    disabled,
  }).rules;
  return rules.map((rule) => ({ label: rule.label, active: rule.active, ...(rule.note ? { note: rule.note } : {}), disabled: disabled.has(rule.label) }));
}
