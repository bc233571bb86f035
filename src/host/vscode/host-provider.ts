import { createProvider } from '../../core/providers/create-provider.js';
import type { ApiProvider, ProviderConfig } from '../../core/providers/types.js';
import { providerEntry } from '../../shared/providers.js';
import { VsCodeLmProvider } from './vscode-lm-provider.js';

/**
 * The provider the settings describe, as the extension builds it: VS Code's own language models
 * through `vscode.lm` (which the engine cannot reach), every other provider through createProvider.
 * Throws a ProviderError saying what to fix, as createProvider does.
 */
export function createHostProvider(config: ProviderConfig): ApiProvider {
  if (providerEntry(config.provider).api === 'vscode-lm') return new VsCodeLmProvider(config);
  return createProvider(config);
}
