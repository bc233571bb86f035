import type { ProviderConfig } from '../../core/providers/types.js';
import type { PlanAct } from '../../shared/plan-act.js';
import { modeProfileFields, namedModeProfiles } from '../../core/session/mode-profile-fields.js';
import type { ApiProfile } from '../../shared/protocol.js';
import { readProfiles } from './profile-settings.js';
import { providerConfig, type ProviderKeys, type SmithSettings } from './settings.js';

/** The providers of the modes that have their own API profile (`smith.planProfile`, `smith.actProfile`). */
interface ModeProviderConfigs {
  readonly configs: Partial<Record<PlanAct, ProviderConfig>>;
  /** Settings that name a profile there is not: that mode keeps the main settings. */
  readonly problems: readonly string[];
}

/**
 * Each mode's profile as a provider config, with the key stored for that profile's provider;
 * everything the profile does not hold (timeouts, cloud regions) stays the user's.
 */
export async function modeProviderConfigs(
  settings: SmithSettings,
  keys: Pick<ProviderKeys, 'get'>,
  profiles: Readonly<Record<string, ApiProfile>> = readProfiles(),
): Promise<ModeProviderConfigs> {
  const { found, missing } = namedModeProfiles({ plan: settings.planProfile, act: settings.actProfile }, profiles);
  const known = Object.keys(profiles);
  const problems = missing.map(
    ({ mode, name }) =>
      `smith.${mode}Profile names the profile "${name}", which is not in smith.profiles${known.length > 0 ? ` (${known.join(', ')})` : ''}; ${mode === 'plan' ? 'Plan' : 'Act'} mode uses the main settings.`,
  );
  const configs: Partial<Record<PlanAct, ProviderConfig>> = {};
  for (const [mode, fields] of Object.entries(found) as [PlanAct, NonNullable<(typeof found)[PlanAct]>][]) {
    const { apiVersion, ...provider } = fields;
    configs[mode] = providerConfig({ ...settings, ...provider, azureApiVersion: apiVersion }, await keys.get(fields.provider));
  }
  return { configs, problems };
}

/**
 * The provider config of `smith.condenseProfile`, with the key stored for its provider; a name no
 * profile has is a problem (the summaries are then written by `smith.condenseModel` or the task's model).
 */
export async function condenseProviderConfig(
  settings: SmithSettings,
  keys: Pick<ProviderKeys, 'get'>,
  profiles: Readonly<Record<string, ApiProfile>> = readProfiles(),
): Promise<{ readonly config?: ProviderConfig; readonly problem?: string }> {
  const name = settings.condenseProfile;
  if (!name) return {};
  const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (!profile)
    return {
      problem: `smith.condenseProfile names the profile "${name}", which is not in smith.profiles; the summaries are written by ${settings.condenseModel || "the task's own model"}.`,
    };
  const { apiVersion, ...provider } = modeProfileFields(profile, 'act');
  return { config: providerConfig({ ...settings, ...provider, azureApiVersion: apiVersion }, await keys.get(provider.provider)) };
}
