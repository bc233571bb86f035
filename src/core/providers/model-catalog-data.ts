// The models Smith knows, as data: the vendors' published facts and list prices. An entry the
// user fetched (model-catalog-updates.ts) wins over the one here; a model in neither is inferred
// from its family (model-family.ts).
import type { OpenAiApi } from '../../shared/provider-schemas.js';

/** Prices charged instead when the prompt is longer than `thresholdTokens` (Gemini 2.5 Pro, Claude Sonnet 4 with the 1M-token window). */
export interface LongContextPricing {
  readonly thresholdTokens: number;
  readonly inputPrice: number;
  readonly outputPrice: number;
  readonly cacheWritePrice?: number;
  readonly cacheReadPrice?: number;
}

/** One model's facts and list prices (US dollars per million tokens). */
export interface CatalogEntry {
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly inputPrice: number;
  readonly outputPrice: number;
  readonly cacheWritePrice?: number;
  readonly cacheReadPrice?: number;
  readonly longContextPricing?: LongContextPricing;
  readonly supportsReasoning: boolean;
  readonly supportsImages: boolean;
  readonly supportsPromptCache: boolean;
  /** Other names the vendor accepts for the same model (`-latest`, dated snapshots and previews are matched anyway). */
  readonly aliases?: readonly string[];
  /** OpenAI models served only by the Responses API (not Chat Completions); the others are spoken to with Chat Completions. */
  readonly api?: OpenAiApi;
}

/** The services whose model list gives no window and no prices, so the catalogue gives them. */
export const IDS_ONLY_SERVICES = ['deepseek', 'xai', 'cerebras'] as const;
export type IdsOnlyService = (typeof IDS_ONLY_SERVICES)[number];

/**
 * The vendors whose models the catalogue lists: the three SDK vendors (Azure OpenAI deployments run
 * OpenAI's models), and the OpenAI-compatible services whose `/models` name ids only.
 */
export type CatalogVendor = 'anthropic' | 'openai' | 'gemini' | IdsOnlyService;
export const CATALOG_VENDORS: readonly CatalogVendor[] = ['anthropic', 'openai', 'gemini', ...IDS_ONLY_SERVICES];

export type CatalogTable = Readonly<Record<CatalogVendor, Readonly<Record<string, CatalogEntry>>>>;

const VISION_REASONING_CACHED = { supportsReasoning: true, supportsImages: true, supportsPromptCache: true } as const;
const VISION_CACHED = { supportsReasoning: false, supportsImages: true, supportsPromptCache: true } as const;
const TEXT_CACHED = { supportsReasoning: false, supportsImages: false, supportsPromptCache: true } as const;
const TEXT_REASONING_CACHED = { supportsReasoning: true, supportsImages: false, supportsPromptCache: true } as const;
const TEXT_ONLY = { supportsReasoning: false, supportsImages: false, supportsPromptCache: false } as const;
const TEXT_REASONING = { supportsReasoning: true, supportsImages: false, supportsPromptCache: false } as const;

// GPT-5 and GPT-5.1 and their Codex variants share one price list.
const GPT_5_1 = {
  contextWindow: 400_000,
  maxOutputTokens: 128_000,
  inputPrice: 1.25,
  outputPrice: 10,
  cacheReadPrice: 0.125,
  ...VISION_REASONING_CACHED,
} as const;

// Published list prices in USD per million tokens, standard tier, as known in late 2025 (the vendors'
// pricing pages for Anthropic, OpenAI, the Gemini API paid tier, DeepSeek, xAI and Cerebras). Anthropic cache writes are the
// 5-minute TTL price (1.25x input); OpenAI and Gemini do not bill cache writes. Re-check before relying
// on them: prices change, and new models appear faster than this table does.
export const BUILT_IN_CATALOG: CatalogTable = {
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
      aliases: ['gpt-5.1-chat'],
    },
    'gpt-5.1-codex': { ...GPT_5_1, api: 'responses' },
    'gpt-5.1-codex-max': { ...GPT_5_1, api: 'responses' },
    'gpt-5': {
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
      inputPrice: 1.25,
      outputPrice: 10,
      cacheReadPrice: 0.125,
      ...VISION_REASONING_CACHED,
      aliases: ['gpt-5-chat'],
    },
    'gpt-5-codex': { ...GPT_5_1, api: 'responses' },
    'gpt-5.1-codex-mini': {
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
      inputPrice: 0.25,
      outputPrice: 2,
      cacheReadPrice: 0.025,
      ...VISION_REASONING_CACHED,
      api: 'responses',
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
      api: 'responses',
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
      api: 'responses',
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
    'o1-pro': {
      contextWindow: 200_000,
      maxOutputTokens: 100_000,
      inputPrice: 150,
      outputPrice: 600,
      supportsReasoning: true,
      supportsImages: true,
      supportsPromptCache: false,
      api: 'responses',
    },
    'codex-mini': {
      contextWindow: 200_000,
      maxOutputTokens: 100_000,
      inputPrice: 1.5,
      outputPrice: 6,
      cacheReadPrice: 0.375,
      ...TEXT_REASONING_CACHED,
      api: 'responses',
    },
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
