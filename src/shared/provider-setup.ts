import type { ProviderName, ProviderSetupField } from './protocol.js';

/**
 * What a provider still needs before a task can run, as the engine would refuse it: a model, the
 * server's address for openai-compatible (where a key is optional: local servers have none), and a
 * key for the hosted vendors. Shared so the host's verdict and the settings form's hints agree.
 */
export function missingSetup(setup: { readonly provider: ProviderName; readonly model: string; readonly baseUrl: string }, hasApiKey: boolean): ProviderSetupField[] {
  const missing: ProviderSetupField[] = [];
  if (setup.provider === 'openai-compatible') {
    if (!setup.baseUrl.trim()) missing.push('baseUrl');
  } else if (!hasApiKey) {
    missing.push('apiKey');
  }
  if (!setup.model.trim()) missing.push('model');
  return missing;
}
