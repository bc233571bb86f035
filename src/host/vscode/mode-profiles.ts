import type { ProviderConfig } from '../../core/providers/types.js';
import type { PlanAct } from '../../shared/plan-act.js';
import { modeProfileFields, namedModeProfiles } from '../../core/session/mode-profile-fields.js';
import type { ApiProfile } from '../../shared/protocol.js';
import { readProfiles } from './profile-settings.js';
import { missingSetup } from '../../shared/provider-setup.js';
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

/**
 * The provider config that writes commit messages: `smith.commitMessage.profile`'s, with the key
 * stored for its provider, else the main settings'. A name no profile has is a problem (not
 * silently the main model: the user chose another model on purpose, maybe for its price).
 */
export async function commitMessageProviderConfig(
  settings: SmithSettings,
  keys: Pick<ProviderKeys, 'get'>,
  profiles: Readonly<Record<string, ApiProfile>> = readProfiles(),
): Promise<{ readonly config: ProviderConfig } | { readonly problem: string }> {
  const name = settings.commitMessageProfile;
  if (!name) {
    const apiKey = await keys.get(settings.provider);
    const missing = missingSetup(settings, apiKey !== undefined);
    if (missing.length > 0)
      return { problem: `Smith's provider is not set up (${missing.join(', ')}): open Smith's settings, or name a profile in smith.commitMessage.profile.` };
    return { config: providerConfig(settings, apiKey) };
  }
  const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (!profile) {
    const known = Object.keys(profiles);
    return {
      problem: `smith.commitMessage.profile names the profile "${name}", which is not in smith.profiles${known.length > 0 ? ` (${known.join(', ')})` : ''}.`,
    };
  }
  const { apiVersion, ...provider } = modeProfileFields(profile, 'act');
  return { config: providerConfig({ ...settings, ...provider, azureApiVersion: apiVersion }, await keys.get(provider.provider)) };
}
