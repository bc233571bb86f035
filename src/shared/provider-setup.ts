import type { ProviderName, ProviderSetupField } from './protocol.js';
import { DEFAULT_MODELS, needsModel, providerEntry } from './providers.js';

export { DEFAULT_MODELS };

/**
 * The model field after the user picks another provider: a model that was only the old provider's
 * default (or nothing) becomes the new one's default; a model the user typed stays.
 */
export function modelAfterProviderChange(model: string, from: ProviderName, to: ProviderName): string {
  const typed = model.trim();
  return typed === '' || typed === DEFAULT_MODELS[from] ? DEFAULT_MODELS[to] : model;
}

/**
 * What a provider still needs before a task can run, as the engine would refuse it: a model, the
 * address where the provider has no default one (openai-compatible, an Azure resource), and a key
 * for the hosted services (local servers have none); VS Code's language models need none of them.
 * Shared so the host's verdict and the settings form's hints agree.
 */
export function missingSetup(
  setup: { readonly provider: ProviderName; readonly model: string; readonly baseUrl: string },
  hasApiKey: boolean,
): ProviderSetupField[] {
  const missing: ProviderSetupField[] = [];
  const entry = providerEntry(setup.provider);
  if (entry.baseUrlRequired && !setup.baseUrl.trim()) missing.push('baseUrl');
  if (entry.keyRequired && !hasApiKey) missing.push('apiKey');
  if (!setup.model.trim() && needsModel(setup.provider)) missing.push('model');
  return missing;
}
