import { apiKeyEnvVar } from '../core/providers/create-provider.js';
import type { ProviderConfig, ProviderId } from '../core/providers/types.js';
import type { CliOptions } from './args.js';
import { UsageError } from './args.js';
import { DEFAULT_MODELS } from '../shared/provider-setup.js';


/**
 * Chooses the provider from the flags and the environment: an explicit --provider wins; a
 * --base-url alone means openai-compatible; otherwise the vendor whose key is set.
 */
export function providerConfigFrom(options: CliOptions, env: NodeJS.ProcessEnv): ProviderConfig {
  const provider: ProviderId | undefined =
    options.provider ??
    (options.baseUrl ? 'openai-compatible' : env.ANTHROPIC_API_KEY ? 'anthropic' : env.OPENAI_API_KEY ? 'openai' : env.GEMINI_API_KEY ? 'gemini' : undefined);
  if (!provider) {
    throw new UsageError(
      'no provider chosen: pass --provider (anthropic, openai, gemini, or openai-compatible with --base-url), or set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY',
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
