import { apiKeyEnvVar } from '../core/providers/create-provider.js';
import type { ProviderConfig, ProviderId } from '../core/providers/types.js';
import type { CliOptions } from './cli-options.js';
import { UsageError } from './usage-error.js';
import { DEFAULT_MODELS } from '../shared/provider-setup.js';
import { needsModel, PROVIDERS } from '../shared/providers.js';
import type { ApiProfile } from '../shared/protocol.js';
import type { PlanAct } from '../shared/plan-act.js';
import { profileModelFor } from '../core/session/mode-profile-fields.js';
import { loadCliProfiles, userSettingsFile } from './cli-profiles.js';
import { defaultStorageDir } from './default-storage.js';

/** The CLI's options with the API profile it names, if any (`--profile`). */
type ProfiledOptions = CliOptions & { readonly profile?: string };

/** The hosted services whose key alone picks them, in list order (local servers and Azure need more than a key). */
export const KEYED_PROVIDERS = PROVIDERS.filter((p) => p.keyRequired && !p.baseUrlRequired);

/**
 * Chooses the provider from the flags, the API profile (`--profile` or SMITH_PROFILE) and the
 * environment: each flag wins over the profile's field; without either, a --base-url alone means
 * openai-compatible, else the first hosted service whose key is set.
 */
export function providerConfigFrom(flags: ProfiledOptions, env: NodeJS.ProcessEnv): ProviderConfig {
  const profile = chosenProfile(flags, env);
  const options = profile ? withProfile(flags, profile) : flags;
  const provider: ProviderId | undefined = options.provider ?? (options.baseUrl ? 'openai-compatible' : KEYED_PROVIDERS.find((p) => env[p.keyEnvVar])?.id);
  if (!provider) {
    throw new UsageError(
      `no provider chosen: pass --provider (${PROVIDERS.map((p) => p.id).join(', ')}; openai-compatible with --base-url), or set one of ${KEYED_PROVIDERS.map((p) => p.keyEnvVar).join(', ')}`,
    );
  }
  const model = options.model ?? (DEFAULT_MODELS[provider] || undefined);
  if (!model && needsModel(provider)) throw new UsageError(`--model is required for ${provider}`);
  // A profile may name its own key variable (two profiles of one provider, two keys).
  const apiKey = (profile?.apiKeyEnv ? env[profile.apiKeyEnv] : undefined) || env[apiKeyEnvVar(provider)];
  return {
    provider,
    model: model ?? '',
    ...(apiKey ? { apiKey } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    // Azure's own variable for its api-version, as its SDKs and tools read it.
    ...(provider === 'azure-openai' && (profile?.apiVersion || env.OPENAI_API_VERSION) ? { apiVersion: profile?.apiVersion || env.OPENAI_API_VERSION } : {}),
    ...(options.reasoningEffort ? { reasoning: { effort: options.reasoningEffort } } : {}),
    ...(options.toolProtocol ? { toolProtocol: options.toolProtocol } : {}),
    ...(options.openAiApi ? { openAiApi: options.openAiApi } : {}),
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
  };
}

/**
 * The provider of each mode that runs with its own API profile: --plan-profile / --act-profile,
 * else `planProfile` / `actProfile` in the user's settings file. The profile's fields decide alone
 * (the provider and model flags are the main settings'), and its `planModel` / `actModel` is the
 * model for that mode when it has one.
 */
export function modeProviderConfigsFrom(flags: ProfiledOptions, env: NodeJS.ProcessEnv): Partial<Record<PlanAct, ProviderConfig>> {
  const storageDir = flags.storage ?? defaultStorageDir(env);
  const fromFile = loadCliProfiles(storageDir).modeProfiles;
  const { provider: _provider, model: _model, baseUrl: _baseUrl, reasoningEffort: _effort, toolProtocol: _protocol, openAiApi: _api, ...kept } = flags;
  const configs: Partial<Record<PlanAct, ProviderConfig>> = {};
  for (const mode of ['plan', 'act'] as const) {
    const name = flags.modeProfiles[mode] ?? fromFile[mode];
    if (name === undefined) continue;
    const profile = namedProfile(name, storageDir);
    const modeModel = profileModelFor(profile, mode);
    configs[mode] = providerConfigFrom({ ...kept, profile: name, ...(modeModel ? { model: modeModel } : {}) }, env);
  }
  return configs;
}

/**
 * The model that writes summaries: --condense-profile (an API profile, its provider and key) wins
 * over --condense-model (another model of the main provider); undefined: the task's own.
 */
export function condenseProviderConfigFrom(flags: ProfiledOptions & { readonly condenseProfile?: string }, env: NodeJS.ProcessEnv): ProviderConfig | undefined {
  if (flags.condenseProfile === undefined) return undefined;
  namedProfile(flags.condenseProfile, flags.storage ?? defaultStorageDir(env));
  const { provider: _provider, model: _model, baseUrl: _baseUrl, reasoningEffort: _effort, toolProtocol: _protocol, openAiApi: _api, ...kept } = flags;
  return providerConfigFrom({ ...kept, profile: flags.condenseProfile }, env);
}

/** The profile named by --profile (or SMITH_PROFILE), from the user's settings file; a UsageError names the ones there are. */
function chosenProfile(options: ProfiledOptions, env: NodeJS.ProcessEnv): ApiProfile | undefined {
  const name = options.profile ?? (env.SMITH_PROFILE?.trim() || undefined);
  if (name === undefined) return undefined;
  return namedProfile(name, options.storage ?? defaultStorageDir(env));
}

function namedProfile(name: string, storageDir: string): ApiProfile {
  const { profiles, problems } = loadCliProfiles(storageDir);
  const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (profile) return profile;
  const known = Object.keys(profiles);
  const there = known.length > 0 ? `; the profiles are ${known.join(', ')}` : `; add it under "profiles" in ${userSettingsFile(storageDir)}`;
  throw new UsageError(`no API profile named "${name}"${there}${problems.length > 0 ? ` (${problems.join('; ')})` : ''}`);
}

/** The options with the profile's fields where no flag gave them. */
function withProfile(options: CliOptions, profile: ApiProfile): CliOptions {
  const effort = options.reasoningEffort ?? (profile.reasoningEffort === 'off' ? undefined : profile.reasoningEffort);
  return {
    ...options,
    provider: options.provider ?? profile.provider,
    ...((options.model ?? profile.model) ? { model: options.model ?? profile.model } : {}),
    ...((options.baseUrl ?? profile.baseUrl) ? { baseUrl: options.baseUrl ?? profile.baseUrl } : {}),
    ...(effort ? { reasoningEffort: effort } : {}),
    ...((options.toolProtocol ?? profile.toolProtocol) ? { toolProtocol: options.toolProtocol ?? profile.toolProtocol } : {}),
    ...((options.openAiApi ?? profile.openAiApi) ? { openAiApi: options.openAiApi ?? profile.openAiApi } : {}),
  };
}
