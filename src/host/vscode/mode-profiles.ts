import type { ProviderConfig } from '../../core/providers/types.js';
import type { Mode } from '../../core/log/mode.js';
import { profileChoice } from '../../shared/api-profiles.js';
import type { ApiProfile } from '../../shared/protocol.js';
import { readProfiles } from './profile-settings.js';
import { providerConfig, type ProviderKeys, type SmithSettings } from './settings.js';

/** The providers of the modes that have their own API profile (`smith.planProfile`, `smith.actProfile`). */
interface ModeProviderConfigs {
  readonly configs: Partial<Record<Mode, ProviderConfig>>;
  /** Settings that name a profile there is not: that mode keeps the main settings. */
  readonly problems: readonly string[];
}

const MODE_PROFILE_SETTINGS = [
  ['plan', 'planProfile'],
  ['act', 'actProfile'],
] as const satisfies ReadonlyArray<readonly [Mode, keyof SmithSettings]>;

/** Each mode's profile as a provider config, with the key stored for that profile's provider. */
export async function modeProviderConfigs(
  settings: SmithSettings,
  keys: Pick<ProviderKeys, 'get'>,
  profiles: Readonly<Record<string, ApiProfile>> = readProfiles(),
): Promise<ModeProviderConfigs> {
  const configs: Partial<Record<Mode, ProviderConfig>> = {};
  const problems: string[] = [];
  for (const [mode, setting] of MODE_PROFILE_SETTINGS) {
    const name = settings[setting];
    if (!name) continue;
    const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
    if (!profile) {
      const known = Object.keys(profiles);
      problems.push(
        `smith.${setting} names the profile "${name}", which is not in smith.profiles${known.length > 0 ? ` (${known.join(', ')})` : ''}; ${mode === 'plan' ? 'Plan' : 'Act'} mode uses the main settings.`,
      );
      continue;
    }
    configs[mode] = providerConfig(settingsOfProfile(settings, profile, mode), await keys.get(profile.provider));
  }
  return { configs, problems };
}

/**
 * The settings with a profile's provider fields in place of the main ones; the profile's own model
 * for the mode (its `planModel` or `actModel`) when it has one. Everything else (timeouts, cloud
 * regions) stays the user's.
 */
function settingsOfProfile(settings: SmithSettings, profile: ApiProfile, mode: Mode): SmithSettings {
  const choice = profileChoice(profile);
  const modeModel = mode === 'plan' ? choice.planModel : choice.actModel;
  return {
    ...settings,
    provider: choice.provider,
    model: modeModel || choice.model,
    baseUrl: choice.baseUrl,
    toolProtocol: choice.toolProtocol,
    reasoningEffort: choice.reasoningEffort ?? 'off',
    azureApiVersion: profile.apiVersion ?? '',
  };
}
