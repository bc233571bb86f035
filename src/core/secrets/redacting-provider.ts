import type { ApiProvider } from '../providers/types.js';
import type { SecretRedactor } from './secret-redactor.js';

/**
 * The provider with every request redacted on its way out (system prompt, messages, tool
 * definitions): the one door to the model, condensing and summary requests included.
 */
export function redactingProvider(provider: ApiProvider, redactor: SecretRedactor | undefined): ApiProvider {
  if (!redactor) return provider;
  return {
    id: provider.id,
    modelId: provider.modelId,
    ...(provider.toolProtocol ? { toolProtocol: provider.toolProtocol } : {}),
    createMessage: (request) => {
      const { signal, ...rest } = request;
      const clean = redactor.redactDeep(rest);
      return provider.createMessage({ ...clean, ...(signal ? { signal } : {}) });
    },
  };
}
