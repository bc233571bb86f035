// Smith's modes and Plan/Act as one list of ACP session modes: an editor shows one mode picker, so
// each mode appears twice, as itself (Act) and with Plan first. Mode slugs hold letters, digits and
// dashes only, so the `:plan` suffix can never be part of a slug.
import type { SessionModeState } from '@agentclientprotocol/sdk';
import { modeSummary, type Mode } from '../../core/modes/mode.js';
import type { PlanAct } from '../../shared/plan-act.js';

const PLAN_SUFFIX = ':plan';

/** Plan/Act and the mode, as a session mode id: `code` (Act) or `code:plan`. */
export function acpModeId(state: { readonly mode: PlanAct; readonly modeSlug: string }): string {
  return state.mode === 'plan' ? `${state.modeSlug}${PLAN_SUFFIX}` : state.modeSlug;
}

/** The mode and Plan/Act a session mode id names; undefined when no mode has that slug. */
export function parseAcpModeId(id: string, modes: readonly Mode[]): { mode: PlanAct; modeSlug: string } | undefined {
  const plan = id.endsWith(PLAN_SUFFIX);
  const slug = plan ? id.slice(0, -PLAN_SUFFIX.length) : id;
  return modes.some((m) => m.slug === slug) ? { mode: plan ? 'plan' : 'act', modeSlug: slug } : undefined;
}

/** Every mode in Act and in Plan, and the one in force. */
export function acpModeState(modes: readonly Mode[], current: { readonly mode: PlanAct; readonly modeSlug: string }): SessionModeState {
  return {
    currentModeId: acpModeId(current),
    availableModes: modes.flatMap((mode) => [
      { id: mode.slug, name: mode.name, description: modeSummary(mode) },
      {
        id: `${mode.slug}${PLAN_SUFFIX}`,
        name: `${mode.name} (Plan)`,
        description: `Plans first: reads and discusses, changes nothing until switched to ${mode.name}. ${modeSummary(mode)}`,
      },
    ]),
  };
}
