import { apiKeyEnvVar } from '../core/providers/create-provider.js';
import type { ProviderConfig, ProviderId } from '../core/providers/types.js';
import type { CliOptions } from './args.js';
import { UsageError } from './args.js';
import { DEFAULT_MODELS } from '../shared/provider-setup.js';
import { PROVIDERS } from '../shared/providers.js';


/**
 * Chooses the provider from the flags and the environment: an explicit --provider wins; a
 * --base-url alone means openai-compatible; otherwise the vendor whose key is set.
 */
export function providerConfigFrom(options: CliOptions, env: NodeJS.ProcessEnv): ProviderConfig {
  // The hosted vendors whose key is in the environment, in list order; openai-compatible needs --base-url.
  const vendors = PROVIDERS.filter((p) => p.id !== 'openai-compatible');
  const provider: ProviderId | undefined = options.provider ?? (options.baseUrl ? 'openai-compatible' : vendors.find((p) => env[p.keyEnvVar])?.id);
  if (!provider) {
    throw new UsageError(
      `no provider chosen: pass --provider (${vendors.map((p) => p.id).join(', ')}, or openai-compatible with --base-url), or set ${vendors.map((p) => p.keyEnvVar).join(', ')}`,
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
    ...(options.reasoningEffort ? { reasoning: { effort: options.reasoningEffort } } : {}),
    ...(options.toolProtocol ? { toolProtocol: options.toolProtocol } : {}),
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
  };
}
