import { AnthropicProvider } from './anthropic-provider.js';
import { GeminiProvider } from './gemini-provider.js';
import { OpenAiProvider } from './openai-provider.js';
import { ProviderError } from './types.js';
import type { ApiProvider, ProviderConfig, ProviderId } from './types.js';
import { API_KEY_ENV_VARS } from '../../shared/providers.js';


/** The environment variable a host reads the API key of `provider` from. */
export function apiKeyEnvVar(provider: ProviderId): string {
  return API_KEY_ENV_VARS[provider];
}

/**
 * Builds the provider the settings describe, or throws a ProviderError saying what to fix.
 * It never reads the environment itself: the host resolves `apiKey` (env var or secret storage).
 */
export function createProvider(config: ProviderConfig): ApiProvider {
  const model = config.model.trim();
  if (!model) {
    throw new ProviderError(`No model is set for the ${config.provider} provider. Choose one with --model or in Smith's settings.`);
  }
  const apiKey = config.apiKey?.trim() || undefined;
  const baseUrl = config.baseUrl?.trim() || undefined;
  const envVar = apiKeyEnvVar(config.provider);
  const keySource = `${envVar} (or the API key in Smith's settings)`;
  const common = { model, baseUrl, maxOutputTokens: config.maxOutputTokens, reasoning: config.reasoning, keySource, toolProtocol: config.toolProtocol, idleTimeoutMs: config.idleTimeoutMs };

  switch (config.provider) {
    case 'openai':
      return new OpenAiProvider({ id: 'openai', apiKey: requireKey(apiKey, 'OpenAI', envVar), ...common });
    case 'anthropic':
      return new AnthropicProvider({ apiKey: requireKey(apiKey, 'Anthropic', envVar), ...common });
    case 'openai-compatible':
      if (!baseUrl) {
        throw new ProviderError(
          'The openai-compatible provider needs the server\'s base URL, e.g. http://localhost:11434/v1 for Ollama ' +
            'or http://localhost:1234/v1 for LM Studio. Set it with --base-url or in Smith\'s settings.',
        );
      }
      // Local servers need no key; hosted ones (OpenRouter, vLLM with --api-key) get SMITH_API_KEY.
      return new OpenAiProvider({ id: 'openai-compatible', apiKey, ...common });
    case 'gemini':
      return new GeminiProvider({ apiKey: requireKey(apiKey, 'Gemini', envVar), ...common });
    default:
      throw new ProviderError(`Unknown provider "${String(config.provider)}". Use openai, anthropic, gemini or openai-compatible.`);
  }
}

function requireKey(apiKey: string | undefined, vendor: string, envVar: string): string {
  if (apiKey) return apiKey;
  throw new ProviderError(`No API key for ${vendor}. Set the ${envVar} environment variable (or the API key in Smith's settings).`);
}
