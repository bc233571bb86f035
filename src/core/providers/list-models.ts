import { discoverModels } from './discover-models.js';
import type { ProviderConfig } from './types.js';
import { providerEntry } from '../../shared/providers.js';

/** True when the provider lists its models itself (OpenAI and the OpenAI-compatible services); the others' come from the catalogue. */
export function listsModels(provider: ProviderConfig['provider']): boolean {
  return providerEntry(provider).models !== 'catalogue';
}

/**
 * The model ids a provider's server offers (GET {baseUrl}/models, or the local server's own API),
 * sorted, for a model picker. Throws a ProviderError saying so when the server has no such endpoint.
 */
export async function listModels(config: ProviderConfig, signal?: AbortSignal): Promise<string[]> {
  const models = await discoverModels(config, signal);
  return [...new Set(models.map((model) => model.id))].sort();
}
