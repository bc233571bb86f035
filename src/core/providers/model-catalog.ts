import type { ModelFacts } from './model-facts.js';
import {
  BUILT_IN_CATALOG,
  IDS_ONLY_SERVICES,
  type CatalogEntry,
  type CatalogVendor,
  type IdsOnlyService,
  type LongContextPricing,
} from './model-catalog-data.js';
import type { OpenAiApi } from '../../shared/provider-schemas.js';
import { nearestOfFamily } from './model-family.js';
import type { ProviderId } from './types.js';
import { providerEntry } from '../../shared/providers.js';

/** What Smith knows about one model: its limits, its prices and the features it supports. */
export interface ModelInfo {
  /** The catalogue id, or the id as configured for a model the catalogue does not know. */
  readonly id: string;
  /** Prompt + output tokens the model accepts in one request. */
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  /** US dollars per million uncached input tokens; absent when unknown (a model the catalogue does not know). */
  readonly inputPrice?: number;
  /** US dollars per million output tokens (reasoning/thinking tokens included); absent when unknown. */
  readonly outputPrice?: number;
  /** US dollars per million tokens written to the prompt cache; input price when absent. */
  readonly cacheWritePrice?: number;
  /** US dollars per million tokens read from the prompt cache; input price when absent. */
  readonly cacheReadPrice?: number;
  /** Prices charged instead when the prompt is longer than `thresholdTokens`. */
  readonly longContextPricing?: LongContextPricing;
  /** Extended thinking (Anthropic), reasoning_effort (OpenAI), thinkingConfig (Gemini). */
  readonly supportsReasoning: boolean;
  readonly supportsImages: boolean;
  /** Cached prompt tokens are reported and billed at a discount (Anthropic needs cache_control breakpoints for it). */
  readonly supportsPromptCache: boolean;
  /** Set when the catalogue does not know the model and its facts are those of this model of the same family. */
  readonly inferredFrom?: string;
}

/**
 * Settings the user gives for a model the catalogue cannot know (local or proxied models), or to
 * correct it: the facts a provider may tell, but for whether it reasons or takes native tools.
 */
export type ModelInfoOverrides = Omit<ModelFacts, 'id' | 'supportsReasoning' | 'supportsTools'>;

/** A model whose list prices are known (every catalogue entry). */
interface PricedModelInfo extends ModelInfo {
  readonly inputPrice: number;
  readonly outputPrice: number;
}

// What to assume about a model neither the catalogue nor its family tells: generous enough to work.
// Its prices stay unknown (a cost is never guessed as zero); they come from the provider or the user's overrides.
const DEFAULTS: Readonly<Record<Exclude<CatalogVendor, IdsOnlyService> | 'other', Omit<ModelInfo, 'id'>>> = {
  anthropic: { contextWindow: 200_000, maxOutputTokens: 8_192, supportsReasoning: true, supportsImages: true, supportsPromptCache: true },
  openai: { contextWindow: 128_000, maxOutputTokens: 16_384, supportsReasoning: false, supportsImages: true, supportsPromptCache: true },
  gemini: { contextWindow: 1_048_576, maxOutputTokens: 8_192, supportsReasoning: true, supportsImages: true, supportsPromptCache: true },
  other: { contextWindow: 128_000, maxOutputTokens: 8_192, supportsReasoning: false, supportsImages: false, supportsPromptCache: false },
};

// Entries the user fetched (model-catalog-updates.ts), merged over the built-in ones once per update.
let tables: Readonly<Record<CatalogVendor, Readonly<Record<string, CatalogEntry>>>> = BUILT_IN_CATALOG;

/**
 * Puts fetched entries over the built-in catalogue for every later lookup (an id in both takes the
 * fetched facts); an empty update goes back to the built-in catalogue alone.
 */
export function applyFetchedCatalog(fetched: Readonly<Partial<Record<CatalogVendor, Readonly<Record<string, CatalogEntry>>>>>): void {
  const merged = { ...BUILT_IN_CATALOG };
  for (const vendor of Object.keys(fetched) as CatalogVendor[]) merged[vendor] = { ...BUILT_IN_CATALOG[vendor], ...fetched[vendor] };
  tables = merged;
}

/** The catalogue that lists a provider's models, if any (the other OpenAI-compatible services have none). */
function catalogVendor(provider: ProviderId): CatalogVendor | undefined {
  const api = providerEntry(provider).api;
  // The editor describes its own models; the catalogue knows none of them.
  if (api === 'vscode-lm') return undefined;
  if (api === 'azure-openai') return 'openai';
  if (api === 'gemini-vertex') return 'gemini';
  if (api === 'anthropic-vertex' || api === 'anthropic-bedrock') return 'anthropic';
  if (api === 'openai-compatible') return (IDS_ONLY_SERVICES as readonly string[]).includes(provider) ? (provider as IdsOnlyService) : undefined;
  return api;
}

/** The assumptions for a provider's models the catalogue does not list. */
function defaultsFor(provider: ProviderId): Omit<ModelInfo, 'id'> {
  const vendor = catalogVendor(provider);
  return vendor === 'anthropic' || vendor === 'openai' || vendor === 'gemini' ? DEFAULTS[vendor] : DEFAULTS.other;
}

// Snapshot and channel suffixes vendors add to a model's name: claude-sonnet-4-5-20250929,
// gpt-4o-2024-08-06, claude-3-5-haiku-latest, gemini-2.5-flash-preview-05-20, gemini-2.0-flash-001,
// Vertex's claude-opus-4-1@20250805, gemini-2.0-flash-exp.
const SUFFIXES = [/-\d{8}$/, /@\d{8}$/, /-\d{4}-\d{2}-\d{2}$/, /-latest$/, /-preview(?:-\d{2}-\d{2})?$/, /-exp(?:-\d{4})?$/, /-\d{3}$/];

/**
 * The catalogue's entry for a model; for an id it does not list, the facts of the nearest model of
 * the same family and vendor (`inferredFrom` names it: claude-opus-4-7 is taken for claude-opus-4-5).
 * Undefined when neither tells (an OpenAI-compatible service's model never is).
 */
export function findModelInfo(provider: ProviderId, modelId: string): PricedModelInfo | undefined {
  const vendor = catalogVendor(provider);
  if (!vendor) return undefined;
  const table = tables[vendor];
  const candidates = candidateIds(modelId);
  for (const candidate of candidates) {
    const direct = Object.hasOwn(table, candidate) ? table[candidate] : undefined;
    if (direct) return toModelInfo(candidate, direct);
    const aliased = Object.entries(table).find(([, entry]) => entry.aliases?.includes(candidate));
    if (aliased) return toModelInfo(aliased[0], aliased[1]);
  }
  const kin = nearestOfFamily(vendor, candidates[candidates.length - 1] ?? modelId, Object.keys(table));
  return kin === undefined ? undefined : { ...toModelInfo(modelId, table[kin] as CatalogEntry), inferredFrom: kin };
}

/**
 * The model's info: what the provider told about it (`discovered`) over the catalogue's entry (or
 * the one inferred from its family) or the provider's defaults; `overrides` (the user's settings)
 * win over all of them.
 */
export function modelInfo(provider: ProviderId, modelId: string, overrides: ModelInfoOverrides = {}, discovered?: ModelFacts): ModelInfo {
  const base = findModelInfo(provider, modelId) ?? { id: modelId, ...defaultsFor(provider) };
  const { id: _id, supportsTools: _tools, inferredFrom: _inferred, ...told } = discovered ?? { id: modelId };
  return { ...base, ...definedFields(told), ...definedFields(overrides) };
}

function definedFields(values: object): Partial<ModelInfo> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))));
}

/** The model ids the catalogue lists for a provider (built-in and fetched), e.g. to offer in a picker. */
export function catalogModelIds(provider: ProviderId): string[] {
  const vendor = catalogVendor(provider);
  return vendor ? Object.keys(tables[vendor]) : [];
}

function candidateIds(modelId: string): string[] {
  // Bedrock's names: an inference profile's region, the vendor and a version
  // (us.anthropic.claude-sonnet-4-5-20250929-v1:0 → claude-sonnet-4-5-20250929).
  let id = modelId
    .trim()
    .toLowerCase()
    .replace(/^models\//, '')
    .replace(/^(?:[a-z]+(?:-[a-z]+)?\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '');
  const candidates = [id];
  // Strip one suffix at a time: gemini-2.5-flash-lite-preview-06-17 → gemini-2.5-flash-lite.
  for (let stripped = true; stripped; ) {
    stripped = false;
    for (const suffix of SUFFIXES) {
      const shorter = id.replace(suffix, '');
      if (shorter !== id && shorter) {
        id = shorter;
        candidates.push(id);
        stripped = true;
      }
    }
  }
  return candidates;
}

/**
 * Which OpenAI API serves a model: the one `configured` (the profile's `openAiApi`), else the
 * Responses API for the models the catalogue lists as Responses-only (the Codex and pro models)
 * and for an unlisted one named like them (gpt-5.2-codex like gpt-5.1-codex, o4-pro like o3-pro),
 * else Chat Completions, which every compatible server speaks.
 */
export function openAiApiFor(provider: ProviderId, modelId: string, configured?: OpenAiApi): OpenAiApi {
  if (configured) return configured;
  if (catalogVendor(provider) !== 'openai') return 'chat-completions';
  const table = tables.openai;
  const info = findModelInfo(provider, modelId);
  if (info && info.inferredFrom === undefined) return (Object.hasOwn(table, info.id) ? table[info.id]?.api : undefined) ?? 'chat-completions';
  // Versions aside, the name says the kind of model: gpt-#-codex-max, o#-pro.
  const shape = (id: string) => id.replace(/\d+(?:\.\d+)?/g, '#');
  const wanted = shape(candidateIds(modelId).at(-1) ?? modelId);
  const kin = Object.entries(table).find(([id]) => shape(id) === wanted);
  return kin?.[1].api ?? 'chat-completions';
}

function toModelInfo(id: string, entry: CatalogEntry): PricedModelInfo {
  const { aliases: _aliases, api: _api, ...info } = entry;
  return { id, ...info };
}
