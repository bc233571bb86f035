import { discoverModel, discoverModels, modelEndpoint } from './discover-models.js';
import { listsModels } from './list-models.js';
import { catalogModelIds, findModelInfo } from './model-catalog.js';
import { ModelFactsCache } from './model-facts-cache.js';
import { hasUsefulFacts, type ModelFacts } from './model-facts.js';
import type { ApiProvider, ProviderConfig, ProviderId } from './types.js';

export type { ModelFacts } from './model-facts.js';

/** How long facts fetched from a server are used before a task asks again. */
export const MODEL_FACTS_MAX_AGE_MS = 24 * 60 * 60 * 1000;

// A task never waits longer than this for a server to describe its model: it starts without them.
const TASK_DISCOVERY_TIMEOUT_MS = 10_000;

/**
 * A provider's models: the server's own list where it has one (`server`), what it said last time
 * when it does not answer now (`cache`, with `fetchedAt`), else the catalogue's; `error` says why the
 * server's failed.
 */
export interface ProviderModels {
  readonly source: 'server' | 'cache' | 'catalogue';
  readonly models: readonly ModelFacts[];
  readonly error?: string;
  /** When the cached list was fetched (milliseconds since the epoch). */
  readonly fetchedAt?: number;
}

/** Where facts are kept between runs, and the clock they are dated by. */
interface ModelFactsOptions {
  readonly signal?: AbortSignal;
  readonly cache?: ModelFactsCache;
  readonly now?: () => number;
}

/**
 * The models a model picker offers, each with its facts: those the server tells (window, prices,
 * images, tools), completed from the catalogue. The list is stored in the cache; when the server
 * fails, the cached list is offered, else the catalogue's, with the error.
 */
export async function providerModels(config: ProviderConfig, options: ModelFactsOptions = {}): Promise<ProviderModels> {
  if (!listsModels(config.provider)) return { source: 'catalogue', models: catalogFacts(config.provider) };
  const now = options.now ?? Date.now;
  try {
    const models = (await discoverModels(config, options.signal))
      .map((facts) => withCatalogue(config.provider, facts))
      .sort((a, b) => a.id.localeCompare(b.id));
    options.cache?.write(cacheKey(config), models, now());
    return { source: 'server', models };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const cached = safely(() => options.cache?.read(cacheKey(config)));
    if (cached && cached.models.length > 0) return { source: 'cache', models: cached.models, error: message, fetchedAt: cached.fetchedAt };
    return { source: 'catalogue', models: catalogFacts(config.provider), error: message };
  }
}

/**
 * What the provider's server says about the configured model, for cost and context management:
 * from the cache while it is fresh, else asked anew (and stored); the stale cache when the server
 * does not answer. Undefined when the provider does not describe its models (the catalogue then
 * answers) or nothing is known. Never throws: a task runs without the facts rather than not at all.
 */
export async function modelFactsFor(config: ProviderConfig, options: ModelFactsOptions = {}): Promise<ModelFacts | undefined> {
  // OpenAI's own list has ids only; the catalogue describes its models.
  if (!listsModels(config.provider) || config.provider === 'openai') return undefined;
  const now = options.now ?? Date.now;
  const key = safely(() => cacheKey(config));
  if (key === undefined) return undefined;
  const cached = safely(() => options.cache?.read(key));
  const cachedModel = cached?.models.find((model) => model.id === config.model);
  if (cached && cachedModel && now() - cached.fetchedAt < MODEL_FACTS_MAX_AGE_MS) return cachedModel;
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(TASK_DISCOVERY_TIMEOUT_MS)])
    : AbortSignal.timeout(TASK_DISCOVERY_TIMEOUT_MS);
  try {
    if (modelEndpoint(config).entry.models === 'ollama') {
      const facts = await discoverModel(config, config.model, signal);
      if (facts) safely(() => options.cache?.upsert(key, facts, now()));
      return facts;
    }
    const models = await discoverModels(config, signal);
    safely(() => options.cache?.write(key, models, now()));
    return models.find((model) => model.id === config.model);
  } catch {
    return cachedModel;
  }
}

function cacheKey(config: ProviderConfig): string {
  return ModelFactsCache.key(config.provider, modelEndpoint(config).baseUrl);
}

/** A cache that cannot be read or written (a read-only storage folder) is no cache, not a failure. */
function safely<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch {
    return undefined;
  }
}

function catalogFacts(provider: ProviderId): ModelFacts[] {
  return catalogModelIds(provider).map((id) => withCatalogue(provider, { id }));
}

/** The server's facts, completed by what the catalogue knows of the model (the server's win). */
function withCatalogue(provider: ProviderId, facts: ModelFacts): ModelFacts {
  const info = findModelInfo(provider, facts.id);
  if (!info) return facts;
  return {
    contextWindow: info.contextWindow,
    maxOutputTokens: info.maxOutputTokens,
    inputPrice: info.inputPrice,
    outputPrice: info.outputPrice,
    ...(info.cacheReadPrice !== undefined ? { cacheReadPrice: info.cacheReadPrice } : {}),
    ...(info.cacheWritePrice !== undefined ? { cacheWritePrice: info.cacheWritePrice } : {}),
    supportsImages: info.supportsImages,
    supportsReasoning: info.supportsReasoning,
    ...(info.inferredFrom !== undefined ? { inferredFrom: info.inferredFrom } : {}),
    ...facts,
  };
}

/**
 * The facts the servers tell about the models of a task's providers (the main one and each mode's),
 * from the cache in `storageDir` or asked anew; a provider that describes its model itself
 * (`describeModel`) is asked instead. Providers built without settings (test doubles) and models
 * nobody describes are left out.
 */
export async function learnModelFacts(providers: readonly ApiProvider[], storageDir: string, signal?: AbortSignal): Promise<Map<ApiProvider, ModelFacts>> {
  const cache = ModelFactsCache.in(storageDir);
  const learned = new Map<ApiProvider, ModelFacts>();
  await Promise.all(
    [...new Set(providers)].map(async (provider) => {
      const facts = provider.describeModel
        ? await provider.describeModel(signal).catch(() => undefined)
        : provider.config
          ? await modelFactsFor(provider.config, { cache, ...(signal ? { signal } : {}) })
          : undefined;
      if (facts && hasUsefulFacts(facts)) learned.set(provider, facts);
    }),
  );
  return learned;
}
