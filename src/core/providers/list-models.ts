import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { createOpenAiClient } from './openai-client.js';
import { toProviderError } from './provider-errors.js';
import { apiKeyEnvVar } from './create-provider.js';
import { ProviderError } from './types.js';
import type { ProviderConfig } from './types.js';
import { providerEntry } from '../../shared/providers.js';

/** True when the provider answers GET /models the OpenAI way (OpenAI and every OpenAI-compatible service). */
export function listsModels(provider: ProviderConfig['provider']): boolean {
  const { api } = providerEntry(provider);
  return api === 'openai' || api === 'openai-compatible';
}

/**
 * The model ids an OpenAI or OpenAI-compatible server offers (GET {baseUrl}/models), sorted, for a
 * model picker. Throws a ProviderError saying so when the server has no such endpoint.
 */
export async function listModels(config: ProviderConfig, signal?: AbortSignal): Promise<string[]> {
  if (!listsModels(config.provider)) {
    throw new ProviderError(`Listing models is only supported for OpenAI and the OpenAI-compatible providers, not ${config.provider}.`);
  }
  const baseUrl = config.baseUrl?.trim() || undefined;
  if (providerEntry(config.provider).baseUrlRequired && !baseUrl) {
    throw new ProviderError('The openai-compatible provider needs the server\'s base URL before its models can be listed. Set it with --base-url or in Smith\'s settings.');
  }
  const { client, errorContext } = createOpenAiClient({
    id: config.provider,
    model: config.model,
    apiKey: config.apiKey?.trim() || undefined,
    baseUrl,
    keySource: `${apiKeyEnvVar(config.provider)} (or the API key in Smith's settings)`,
  });
  const ids: string[] = [];
  try {
    // Iterating the page fetches the following pages too (OpenAI itself answers in one).
    for await (const model of client.models.list({ signal })) {
      if (typeof model?.id === 'string') ids.push(model.id);
    }
  } catch (err) {
    if (err instanceof APIError && (err.status === 404 || err.status === 405)) {
      throw new ProviderError(
        `${capitalized(errorContext.label)} at ${errorContext.baseUrl} does not list its models ` +
          `(GET /models answered HTTP ${err.status}). Type the model name instead.`,
        err.status,
        false,
      );
    }
    throw toProviderError(err, { APIError, APIUserAbortError, APIConnectionError }, errorContext, signal, false);
  }
  return [...new Set(ids)].sort();
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
