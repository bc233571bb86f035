import type { ModelFacts } from './model-facts.js';
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
}

/** Tiered prices for long prompts (Gemini 2.5 Pro, Claude Sonnet 4 with the 1M-token window). */
interface LongContextPricing {
  readonly thresholdTokens: number;
  readonly inputPrice: number;
  readonly outputPrice: number;
  readonly cacheWritePrice?: number;
  readonly cacheReadPrice?: number;
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

interface CatalogEntry extends Omit<PricedModelInfo, 'id'> {
  /** Other names the vendor accepts for the same model (`-latest`, dated snapshots and previews are matched anyway). */
  readonly aliases?: readonly string[];
}

/**
 * The vendors whose models the catalogue lists: the three SDK vendors (Azure OpenAI deployments run
 * OpenAI's models), and the OpenAI-compatible services whose `/models` name ids only.
 */
type CatalogVendor = 'anthropic' | 'openai' | 'gemini' | IdsOnlyService;

/** The services whose model list gives no window and no prices, so the catalogue gives them. */
const IDS_ONLY_SERVICES = ['deepseek', 'xai', 'cerebras'] as const;
type IdsOnlyService = (typeof IDS_ONLY_SERVICES)[number];

const VISION_REASONING_CACHED = { supportsReasoning: true, supportsImages: true, supportsPromptCache: true } as const;
const VISION_CACHED = { supportsReasoning: false, supportsImages: true, supportsPromptCache: true } as const;
const TEXT_CACHED = { supportsReasoning: false, supportsImages: false, supportsPromptCache: true } as const;
const TEXT_REASONING_CACHED = { supportsReasoning: true, supportsImages: false, supportsPromptCache: true } as const;
const TEXT_ONLY = { supportsReasoning: false, supportsImages: false, supportsPromptCache: false } as const;
const TEXT_REASONING = { supportsReasoning: true, supportsImages: false, supportsPromptCache: false } as const;

// Published list prices in USD per million tokens, standard tier, as known in late 2025 (the vendors'
// pricing pages for Anthropic, OpenAI, the Gemini API paid tier, DeepSeek, xAI and Cerebras). Anthropic cache writes are the
// 5-minute TTL price (1.25x input); OpenAI and Gemini do not bill cache writes. Re-check before relying
// on them: prices change, and new models appear faster than this table does.
const CATALOG: Readonly<Record<CatalogVendor, Readonly<Record<string, CatalogEntry>>>> = {
  anthropic: {
    'claude-opus-4-5': {
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      inputPrice: 5,
      outputPrice: 25,
      cacheWritePrice: 6.25,
      cacheReadPrice: 0.5,
      ...VISION_REASONING_CACHED,
    },
    'claude-opus-4-1': {
      contextWindow: 200_000,
      maxOutputTokens: 32_000,
      inputPrice: 15,
      outputPrice: 75,
      cacheWritePrice: 18.75,
      cacheReadPrice: 1.5,
      ...VISION_REASONING_CACHED,
    },
    'claude-opus-4': {
      contextWindow: 200_000,
      maxOutputTokens: 32_000,
      inputPrice: 15,
      outputPrice: 75,
      cacheWritePrice: 18.75,
      cacheReadPrice: 1.5,
      ...VISION_REASONING_CACHED,
      aliases: ['claude-opus-4-0'],
    },
    'claude-sonnet-4-5': {
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      inputPrice: 3,
      outputPrice: 15,
      cacheWritePrice: 3.75,
      cacheReadPrice: 0.3,
      longContextPricing: { thresholdTokens: 200_000, inputPrice: 6, outputPrice: 22.5, cacheWritePrice: 7.5, cacheReadPrice: 0.6 },
      ...VISION_REASONING_CACHED,
    },
    'claude-sonnet-4': {
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      inputPrice: 3,
      outputPrice: 15,
      cacheWritePrice: 3.75,
      cacheReadPrice: 0.3,
      longContextPricing: { thresholdTokens: 200_000, inputPrice: 6, outputPrice: 22.5, cacheWritePrice: 7.5, cacheReadPrice: 0.6 },
      ...VISION_REASONING_CACHED,
      aliases: ['claude-sonnet-4-0'],
    },
    'claude-3-7-sonnet': {
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      inputPrice: 3,
      outputPrice: 15,
      cacheWritePrice: 3.75,
      cacheReadPrice: 0.3,
      ...VISION_REASONING_CACHED,
    },
    'claude-haiku-4-5': {
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      inputPrice: 1,
      outputPrice: 5,
      cacheWritePrice: 1.25,
      cacheReadPrice: 0.1,
      ...VISION_REASONING_CACHED,
    },
    'claude-3-5-haiku': {
      contextWindow: 200_000,
      maxOutputTokens: 8_192,
      inputPrice: 0.8,
      outputPrice: 4,
      cacheWritePrice: 1,
      cacheReadPrice: 0.08,
      ...VISION_CACHED,
    },
    'claude-3-haiku': {
      contextWindow: 200_000,
      maxOutputTokens: 4_096,
      inputPrice: 0.25,
      outputPrice: 1.25,
      cacheWritePrice: 0.3,
      cacheReadPrice: 0.03,
      ...VISION_CACHED,
    },
  },
  openai: {
    'gpt-5.1': {
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
      inputPrice: 1.25,
      outputPrice: 10,
      cacheReadPrice: 0.125,
      ...VISION_REASONING_CACHED,
      aliases: ['gpt-5.1-codex', 'gpt-5.1-chat'],
    },
    'gpt-5': {
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
      inputPrice: 1.25,
      outputPrice: 10,
      cacheReadPrice: 0.125,
      ...VISION_REASONING_CACHED,
      aliases: ['gpt-5-codex', 'gpt-5-chat'],
    },
    'gpt-5-mini': { contextWindow: 400_000, maxOutputTokens: 128_000, inputPrice: 0.25, outputPrice: 2, cacheReadPrice: 0.025, ...VISION_REASONING_CACHED },
    'gpt-5-nano': { contextWindow: 400_000, maxOutputTokens: 128_000, inputPrice: 0.05, outputPrice: 0.4, cacheReadPrice: 0.005, ...VISION_REASONING_CACHED },
    'gpt-5-pro': {
      contextWindow: 400_000,
      maxOutputTokens: 272_000,
      inputPrice: 15,
      outputPrice: 120,
      supportsReasoning: true,
      supportsImages: true,
      supportsPromptCache: false,
    },
    'gpt-4.1': { contextWindow: 1_047_576, maxOutputTokens: 32_768, inputPrice: 2, outputPrice: 8, cacheReadPrice: 0.5, ...VISION_CACHED },
    'gpt-4.1-mini': { contextWindow: 1_047_576, maxOutputTokens: 32_768, inputPrice: 0.4, outputPrice: 1.6, cacheReadPrice: 0.1, ...VISION_CACHED },
    'gpt-4.1-nano': { contextWindow: 1_047_576, maxOutputTokens: 32_768, inputPrice: 0.1, outputPrice: 0.4, cacheReadPrice: 0.025, ...VISION_CACHED },
    'gpt-4o': {
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
      inputPrice: 2.5,
      outputPrice: 10,
      cacheReadPrice: 1.25,
      ...VISION_CACHED,
      aliases: ['chatgpt-4o'],
    },
    'gpt-4o-mini': { contextWindow: 128_000, maxOutputTokens: 16_384, inputPrice: 0.15, outputPrice: 0.6, cacheReadPrice: 0.075, ...VISION_CACHED },
    o3: { contextWindow: 200_000, maxOutputTokens: 100_000, inputPrice: 2, outputPrice: 8, cacheReadPrice: 0.5, ...VISION_REASONING_CACHED },
    'o3-pro': {
      contextWindow: 200_000,
      maxOutputTokens: 100_000,
      inputPrice: 20,
      outputPrice: 80,
      supportsReasoning: true,
      supportsImages: true,
      supportsPromptCache: false,
    },
    'o3-mini': {
      contextWindow: 200_000,
      maxOutputTokens: 100_000,
      inputPrice: 1.1,
      outputPrice: 4.4,
      cacheReadPrice: 0.55,
      supportsReasoning: true,
      supportsImages: false,
      supportsPromptCache: true,
    },
    'o4-mini': { contextWindow: 200_000, maxOutputTokens: 100_000, inputPrice: 1.1, outputPrice: 4.4, cacheReadPrice: 0.275, ...VISION_REASONING_CACHED },
    o1: { contextWindow: 200_000, maxOutputTokens: 100_000, inputPrice: 15, outputPrice: 60, cacheReadPrice: 7.5, ...VISION_REASONING_CACHED },
  },
  gemini: {
    'gemini-3-pro': {
      contextWindow: 1_048_576,
      maxOutputTokens: 65_536,
      inputPrice: 2,
      outputPrice: 12,
      cacheReadPrice: 0.2,
      longContextPricing: { thresholdTokens: 200_000, inputPrice: 4, outputPrice: 18, cacheReadPrice: 0.4 },
      ...VISION_REASONING_CACHED,
    },
    'gemini-2.5-pro': {
      contextWindow: 1_048_576,
      maxOutputTokens: 65_536,
      inputPrice: 1.25,
      outputPrice: 10,
      cacheReadPrice: 0.125,
      longContextPricing: { thresholdTokens: 200_000, inputPrice: 2.5, outputPrice: 15, cacheReadPrice: 0.25 },
      ...VISION_REASONING_CACHED,
    },
    'gemini-2.5-flash': {
      contextWindow: 1_048_576,
      maxOutputTokens: 65_536,
      inputPrice: 0.3,
      outputPrice: 2.5,
      cacheReadPrice: 0.03,
      ...VISION_REASONING_CACHED,
    },
    'gemini-2.5-flash-lite': {
      contextWindow: 1_048_576,
      maxOutputTokens: 65_536,
      inputPrice: 0.1,
      outputPrice: 0.4,
      cacheReadPrice: 0.01,
      ...VISION_REASONING_CACHED,
    },
    'gemini-2.0-flash': { contextWindow: 1_048_576, maxOutputTokens: 8_192, inputPrice: 0.1, outputPrice: 0.4, cacheReadPrice: 0.025, ...VISION_CACHED },
    'gemini-2.0-flash-lite': {
      contextWindow: 1_048_576,
      maxOutputTokens: 8_192,
      inputPrice: 0.075,
      outputPrice: 0.3,
      supportsReasoning: false,
      supportsImages: true,
      supportsPromptCache: false,
    },
  },
  // DeepSeek's API (V3.2): both names share one price; a cache hit costs a tenth of a miss.
  deepseek: {
    'deepseek-chat': { contextWindow: 128_000, maxOutputTokens: 8_192, inputPrice: 0.28, outputPrice: 0.42, cacheReadPrice: 0.028, ...TEXT_CACHED },
    'deepseek-reasoner': {
      contextWindow: 128_000,
      maxOutputTokens: 65_536,
      inputPrice: 0.28,
      outputPrice: 0.42,
      cacheReadPrice: 0.028,
      ...TEXT_REASONING_CACHED,
    },
  },
  // xAI's API: prompts over 128K tokens cost double on Grok 4 and Grok 4 Fast.
  xai: {
    'grok-4': {
      contextWindow: 256_000,
      maxOutputTokens: 64_000,
      inputPrice: 3,
      outputPrice: 15,
      cacheReadPrice: 0.75,
      longContextPricing: { thresholdTokens: 128_000, inputPrice: 6, outputPrice: 30, cacheReadPrice: 0.75 },
      ...VISION_REASONING_CACHED,
      aliases: ['grok-4-0709'],
    },
    'grok-4-fast-reasoning': {
      contextWindow: 2_000_000,
      maxOutputTokens: 30_000,
      inputPrice: 0.2,
      outputPrice: 0.5,
      cacheReadPrice: 0.05,
      longContextPricing: { thresholdTokens: 128_000, inputPrice: 0.4, outputPrice: 1, cacheReadPrice: 0.05 },
      ...VISION_REASONING_CACHED,
      aliases: ['grok-4-fast', 'grok-4-1-fast-reasoning', 'grok-4-1-fast'],
    },
    'grok-4-fast-non-reasoning': {
      contextWindow: 2_000_000,
      maxOutputTokens: 30_000,
      inputPrice: 0.2,
      outputPrice: 0.5,
      cacheReadPrice: 0.05,
      longContextPricing: { thresholdTokens: 128_000, inputPrice: 0.4, outputPrice: 1, cacheReadPrice: 0.05 },
      ...VISION_CACHED,
      aliases: ['grok-4-1-fast-non-reasoning'],
    },
    'grok-code-fast-1': { contextWindow: 256_000, maxOutputTokens: 10_000, inputPrice: 0.2, outputPrice: 1.5, cacheReadPrice: 0.02, ...TEXT_REASONING_CACHED },
    'grok-3': { contextWindow: 131_072, maxOutputTokens: 16_384, inputPrice: 3, outputPrice: 15, cacheReadPrice: 0.75, ...TEXT_CACHED },
    'grok-3-mini': { contextWindow: 131_072, maxOutputTokens: 16_384, inputPrice: 0.3, outputPrice: 0.5, cacheReadPrice: 0.075, ...TEXT_REASONING_CACHED },
  },
  // Cerebras's pay-as-you-go tier (its free tier serves shorter windows); no prompt cache discount.
  cerebras: {
    'gpt-oss-120b': { contextWindow: 131_072, maxOutputTokens: 32_768, inputPrice: 0.35, outputPrice: 0.75, ...TEXT_REASONING },
    'llama-3.3-70b': { contextWindow: 131_072, maxOutputTokens: 32_768, inputPrice: 0.85, outputPrice: 1.2, ...TEXT_ONLY },
    'llama3.1-8b': { contextWindow: 131_072, maxOutputTokens: 32_768, inputPrice: 0.1, outputPrice: 0.1, ...TEXT_ONLY },
    'qwen-3-32b': { contextWindow: 131_072, maxOutputTokens: 32_768, inputPrice: 0.4, outputPrice: 0.8, ...TEXT_REASONING },
    'qwen-3-235b-a22b-instruct-2507': { contextWindow: 131_072, maxOutputTokens: 32_768, inputPrice: 0.6, outputPrice: 1.2, ...TEXT_ONLY },
    'qwen-3-coder-480b': { contextWindow: 131_072, maxOutputTokens: 32_768, inputPrice: 2, outputPrice: 2, ...TEXT_ONLY },
  },
};

// What to assume about a model the catalogue does not know: generous enough to work. Its prices
// stay unknown (a cost is never guessed as zero); they come from the provider or the user's overrides.
const DEFAULTS: Readonly<Record<Exclude<CatalogVendor, IdsOnlyService> | 'other', Omit<ModelInfo, 'id'>>> = {
  anthropic: { contextWindow: 200_000, maxOutputTokens: 8_192, ...VISION_REASONING_CACHED },
  openai: { contextWindow: 128_000, maxOutputTokens: 16_384, ...VISION_CACHED },
  gemini: { contextWindow: 1_048_576, maxOutputTokens: 8_192, ...VISION_REASONING_CACHED },
  other: { contextWindow: 128_000, maxOutputTokens: 8_192, supportsReasoning: false, supportsImages: false, supportsPromptCache: false },
};

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

/** The catalogue's entry for a model, or undefined when it does not know the model (an OpenAI-compatible service's never is). */
export function findModelInfo(provider: ProviderId, modelId: string): PricedModelInfo | undefined {
  const vendor = catalogVendor(provider);
  if (!vendor) return undefined;
  const table = CATALOG[vendor];
  for (const candidate of candidateIds(modelId)) {
    const direct = Object.hasOwn(table, candidate) ? table[candidate] : undefined;
    if (direct) return toModelInfo(candidate, direct);
    const aliased = Object.entries(table).find(([, entry]) => entry.aliases?.includes(candidate));
    if (aliased) return toModelInfo(aliased[0], aliased[1]);
  }
  return undefined;
}

/**
 * The model's info: what the provider told about it (`discovered`) over the catalogue's entry or the
 * provider's defaults; `overrides` (the user's settings) win over all of them.
 */
export function modelInfo(provider: ProviderId, modelId: string, overrides: ModelInfoOverrides = {}, discovered?: ModelFacts): ModelInfo {
  const base = findModelInfo(provider, modelId) ?? { id: modelId, ...defaultsFor(provider) };
  const { id: _id, supportsTools: _tools, ...told } = discovered ?? { id: modelId };
  return { ...base, ...definedFields(told), ...definedFields(overrides) };
}

function definedFields(values: object): Partial<ModelInfo> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))));
}

/** The model ids the catalogue knows for a provider, e.g. to offer in a picker. */
export function catalogModelIds(provider: ProviderId): string[] {
  const vendor = catalogVendor(provider);
  return vendor ? Object.keys(CATALOG[vendor]) : [];
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

function toModelInfo(id: string, entry: CatalogEntry): PricedModelInfo {
  const { aliases: _aliases, ...info } = entry;
  return { id, ...info };
}
