// A mode's own API profile (plan or act), as every host reads it: which profile each mode names,
// and the provider settings that profile stands for in that mode.
import { profileChoice } from '../../shared/api-profiles.js';
import type { ApiProfile, ProviderName, ReasoningEffortName, ToolProtocolName } from '../../shared/protocol.js';
import type { PlanAct } from '../../shared/plan-act.js';
import type { OpenAiApi } from '../../shared/provider-schemas.js';

/** The provider settings a profile puts in place of the main ones for a mode; the host adds the key. */
export interface ModeProfileFields {
  readonly provider: ProviderName;
  /** The profile's own model for the mode (`planModel`, `actModel`) when it has one, else its model. */
  readonly model: string;
  /** '' for the provider's default. */
  readonly baseUrl: string;
  readonly toolProtocol: ToolProtocolName;
  readonly reasoningEffort: ReasoningEffortName;
  /** Azure OpenAI's api-version; '' for the default. */
  readonly apiVersion: string;
  /** The OpenAI API to speak; '' for the model catalogue's choice. */
  readonly openAiApi: OpenAiApi | '';
}

/** A profile's own model for a mode, when it names one. */
export function profileModelFor(profile: ApiProfile, mode: PlanAct): string | undefined {
  return (mode === 'plan' ? profile.planModel : profile.actModel) || undefined;
}

/** What a profile stands for in a mode (fields it leaves out: the provider's defaults). */
export function modeProfileFields(profile: ApiProfile, mode: PlanAct): ModeProfileFields {
  const choice = profileChoice(profile);
  return {
    provider: choice.provider,
    model: profileModelFor(profile, mode) ?? choice.model,
    baseUrl: choice.baseUrl,
    toolProtocol: choice.toolProtocol,
    reasoningEffort: choice.reasoningEffort ?? 'off',
    apiVersion: profile.apiVersion ?? '',
    openAiApi: profile.openAiApi ?? '',
  };
}

/** The modes' profiles as named; a name no profile has is `missing` (that mode keeps the main settings). */
export interface NamedModeProfiles {
  readonly found: Partial<Record<PlanAct, ModeProfileFields>>;
  readonly missing: readonly { readonly mode: PlanAct; readonly name: string }[];
}

/** Looks up the profile each mode names ('' or absent: none) among the user's profiles. */
export function namedModeProfiles(names: Partial<Record<PlanAct, string>>, profiles: Readonly<Record<string, ApiProfile>>): NamedModeProfiles {
  const found: Partial<Record<PlanAct, ModeProfileFields>> = {};
  const missing: { mode: PlanAct; name: string }[] = [];
  for (const mode of ['plan', 'act'] as const) {
    const name = names[mode];
    if (!name) continue;
    // Own properties only: a profile named "constructor" or "__proto__" is not found on the prototype.
    const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
    if (profile) found[mode] = modeProfileFields(profile, mode);
    else missing.push({ mode, name });
  }
  return { found, missing };
}
