import { listModels, listsModels } from './list-models.js';
import { catalogModelIds, findModelInfo } from './model-catalog.js';
import type { ProviderConfig, ProviderId } from './types.js';

/** A model a provider offers, with what the catalogue knows about it (nothing, for a model it does not know). */
export interface ModelFacts {
  readonly id: string;
  readonly contextWindow?: number;
  /** US dollars per million input and output tokens. */
  readonly inputPrice?: number;
  readonly outputPrice?: number;
  readonly supportsImages?: boolean;
  readonly supportsReasoning?: boolean;
}

/** A provider's models: the server's own list where it has one, else the catalogue's; `error` says why the server's failed. */
export interface ProviderModels {
  readonly source: 'server' | 'catalogue';
  readonly models: readonly ModelFacts[];
  readonly error?: string;
}

/**
 * The models a model picker offers: OpenAI and OpenAI-compatible servers list theirs (GET
 * /models); the other vendors', and OpenAI's when its list fails, come from the catalogue.
 */
export async function providerModels(config: ProviderConfig, signal?: AbortSignal): Promise<ProviderModels> {
  if (listsModels(config.provider)) {
    try {
      return { source: 'server', models: (await listModels(config, signal)).map((id) => modelFacts(config.provider, id)) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { source: 'catalogue', models: catalogFacts(config.provider), error: message };
    }
  }
  return { source: 'catalogue', models: catalogFacts(config.provider) };
}

function catalogFacts(provider: ProviderId): ModelFacts[] {
  return catalogModelIds(provider).map((id) => modelFacts(provider, id));
}

function modelFacts(provider: ProviderId, id: string): ModelFacts {
  const info = findModelInfo(provider, id);
  if (!info) return { id };
  return {
    id,
    contextWindow: info.contextWindow,
    ...(info.inputPrice !== undefined ? { inputPrice: info.inputPrice } : {}),
    ...(info.outputPrice !== undefined ? { outputPrice: info.outputPrice } : {}),
    supportsImages: info.supportsImages,
    supportsReasoning: info.supportsReasoning,
  };
}
