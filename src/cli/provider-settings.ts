import type { ProviderConfig, ProviderId } from '../core/providers/types.js';
import type { CliOptions } from './args.js';
import { UsageError } from './args.js';

const DEFAULT_MODELS: Partial<Record<ProviderId, string>> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-4.1',
};

/**
 * Chooses the provider from the flags and the environment: an explicit --provider wins; a
 * --base-url alone means openai-compatible; otherwise the vendor whose key is set.
 */
export function providerConfigFrom(options: CliOptions, env: NodeJS.ProcessEnv): ProviderConfig {
  const provider: ProviderId | undefined =
    options.provider ??
    (options.baseUrl ? 'openai-compatible' : env.ANTHROPIC_API_KEY ? 'anthropic' : env.OPENAI_API_KEY ? 'openai' : undefined);
  if (!provider) {
    throw new UsageError(
      'no provider chosen: pass --provider (openai, anthropic or openai-compatible with --base-url), or set ANTHROPIC_API_KEY or OPENAI_API_KEY',
    );
  }
  const model = options.model ?? DEFAULT_MODELS[provider];
  if (!model) throw new UsageError(`--model is required for ${provider}`);
  const apiKey = { openai: env.OPENAI_API_KEY, anthropic: env.ANTHROPIC_API_KEY, 'openai-compatible': env.SMITH_API_KEY }[provider];
  return {
    provider,
    model,
    ...(apiKey ? { apiKey } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  };
}
