import { apiKeyEnvVar } from '../core/providers/create-provider.js';
import type { ProviderConfig, ProviderId } from '../core/providers/types.js';
import type { CliOptions } from './args.js';
import { UsageError } from './args.js';
import { DEFAULT_MODELS } from '../shared/provider-setup.js';
import { PROVIDERS } from '../shared/providers.js';


/** The hosted services whose key alone picks them, in list order (local servers and Azure need more than a key). */
export const KEYED_PROVIDERS = PROVIDERS.filter((p) => p.keyRequired && !p.baseUrlRequired);

/**
 * Chooses the provider from the flags and the environment: an explicit --provider wins; a
 * --base-url alone means openai-compatible; otherwise the first hosted service whose key is set.
 */
export function providerConfigFrom(options: CliOptions, env: NodeJS.ProcessEnv): ProviderConfig {
  const provider: ProviderId | undefined = options.provider ?? (options.baseUrl ? 'openai-compatible' : KEYED_PROVIDERS.find((p) => env[p.keyEnvVar])?.id);
  if (!provider) {
    throw new UsageError(
      `no provider chosen: pass --provider (${PROVIDERS.map((p) => p.id).join(', ')}; openai-compatible with --base-url), or set one of ${KEYED_PROVIDERS.map((p) => p.keyEnvVar).join(', ')}`,
    );
  }
  const model = options.model ?? (DEFAULT_MODELS[provider] || undefined);
  if (!model) throw new UsageError(`--model is required for ${provider}`);
  const apiKey = env[apiKeyEnvVar(provider)];
  return {
    provider,
    model,
    ...(apiKey ? { apiKey } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    // Azure's own variable for its api-version, as its SDKs and tools read it.
    ...(provider === 'azure-openai' && env.OPENAI_API_VERSION ? { apiVersion: env.OPENAI_API_VERSION } : {}),
    ...(options.reasoningEffort ? { reasoning: { effort: options.reasoningEffort } } : {}),
    ...(options.toolProtocol ? { toolProtocol: options.toolProtocol } : {}),
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
  };
}
