import type { ModelInfo } from './model-catalog.js';
import type { TokenUsage } from './types.js';

const PER_MILLION = 1_000_000;

/**
 * What one response cost in US dollars, or undefined when the model's input or output price is
 * unknown (a guess of zero would under-report). `usage.inputTokens` counts the whole prompt (cached
 * tokens included, for every vendor), so the uncached part is inputTokens − cacheRead − cacheWrite.
 */
export function costOf(usage: TokenUsage, info: ModelInfo): number | undefined {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  // Vendors price a whole request by its prompt length (Gemini 2.5 Pro above 200k tokens).
  const tier = info.longContextPricing && usage.inputTokens > info.longContextPricing.thresholdTokens ? info.longContextPricing : info;
  const { inputPrice, outputPrice } = tier;
  if (inputPrice === undefined || outputPrice === undefined) return undefined;
  // An unknown cache price is charged as plain input: never under-report what the user pays.
  const cacheReadPrice = tier.cacheReadPrice ?? inputPrice;
  const cacheWritePrice = tier.cacheWritePrice ?? inputPrice;
  return (uncached * inputPrice + usage.outputTokens * outputPrice + cacheRead * cacheReadPrice + cacheWrite * cacheWritePrice) / PER_MILLION;
}
