import { apiKeyEnvVar } from '../core/providers/create-provider.js';
import type { ProviderConfig, ProviderId } from '../core/providers/types.js';
import type { CliOptions } from './args.js';
import { UsageError } from './args.js';
import { DEFAULT_MODELS } from '../shared/provider-setup.js';
import { PROVIDERS } from '../shared/providers.js';
import type { ApiProfile } from '../shared/protocol.js';
import { loadCliProfiles, userSettingsFile } from './cli-profiles.js';
import { defaultStorageDir } from './default-storage.js';


/** The CLI's options with the API profile it names, if any (`--profile`). */
export type ProfiledOptions = CliOptions & { readonly profile?: string };

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
  if (!model) throw new UsageError(`--model is required for ${provider}`);
  // A profile may name its own key variable (two profiles of one provider, two keys).
  const apiKey = (profile?.apiKeyEnv ? env[profile.apiKeyEnv] : undefined) || env[apiKeyEnvVar(provider)];
  return {
    provider,
    model,
    ...(apiKey ? { apiKey } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    // Azure's own variable for its api-version, as its SDKs and tools read it.
    ...(provider === 'azure-openai' && (profile?.apiVersion || env.OPENAI_API_VERSION) ? { apiVersion: profile?.apiVersion || env.OPENAI_API_VERSION } : {}),
    ...(options.reasoningEffort ? { reasoning: { effort: options.reasoningEffort } } : {}),
    ...(options.toolProtocol ? { toolProtocol: options.toolProtocol } : {}),
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
  };
}

/** The profile named by --profile (or SMITH_PROFILE), from the user's settings file; a UsageError names the ones there are. */
function chosenProfile(options: ProfiledOptions, env: NodeJS.ProcessEnv): ApiProfile | undefined {
  const name = options.profile ?? (env.SMITH_PROFILE?.trim() || undefined);
  if (name === undefined) return undefined;
  const storageDir = options.storage ?? defaultStorageDir(env);
  const { profiles, problems } = loadCliProfiles(storageDir);
  const profile = profiles[name];
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
    ...(options.model ?? profile.model ? { model: options.model ?? profile.model } : {}),
    ...(options.baseUrl ?? profile.baseUrl ? { baseUrl: options.baseUrl ?? profile.baseUrl } : {}),
    ...(effort ? { reasoningEffort: effort } : {}),
    ...(options.toolProtocol ?? profile.toolProtocol ? { toolProtocol: options.toolProtocol ?? profile.toolProtocol } : {}),
  };
}
