import type { PlanAct } from '../shared/plan-act.js';
import { UsageError } from './usage-error.js';

/** Plan/Act and the mode a run starts in, with lines for stderr about deprecated spellings. */
export interface ModeChoice {
  readonly mode: PlanAct;
  /** Plan or Act was asked for (a resumed task switches to it). */
  readonly planActGiven: boolean;
  readonly modeSlug?: string;
  readonly notes: readonly string[];
}

/**
 * Reads `--mode NAME` against the modes there are. `--mode` once chose Plan or Act, so `--mode plan`
 * and `--mode act` still do, with a note, while no mode has that slug; a mode of that name wins.
 * An unknown name is a usage error that lists the modes.
 */
export function chooseMode(
  flags: { readonly mode: PlanAct; readonly planActGiven: boolean; readonly modeSlug?: string; readonly flag?: string },
  modes: readonly { readonly slug: string }[],
): ModeChoice {
  const slug = flags.modeSlug;
  if (slug === undefined) return { mode: flags.mode, planActGiven: flags.planActGiven, notes: [] };
  if (modes.some((m) => m.slug === slug)) return { mode: flags.mode, planActGiven: flags.planActGiven, modeSlug: slug, notes: [] };
  const flag = flags.flag ?? '--mode';
  if (slug === 'plan' || slug === 'act') {
    if (flags.planActGiven && flags.mode !== slug) throw new UsageError(`${flag} ${slug} contradicts --${flags.mode}`);
    return {
      mode: slug,
      planActGiven: true,
      notes: [`${flag} ${slug} is deprecated for Plan/Act and will choose a mode named "${slug}" in the next release; use --${slug}`],
    };
  }
  throw new UsageError(`unknown mode "${slug}"; available: ${modes.map((m) => m.slug).join(', ')}`);
}
