import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { modelInfo } from '../../../src/core/providers/model-catalog.js';
import { costOf } from '../../../src/core/providers/model-cost.js';

function assertDollars(actual: number | undefined, expected: number): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-12, `expected $${expected}, got $${actual}`);
}

// Each case is worked out by hand from the list prices (USD per million tokens) in the comment.
describe('costOf', () => {
  test('Anthropic claude-sonnet-4-5 with cache reads and writes ($3 in, $15 out, $3.75 write, $0.30 read)', () => {
    // What AnthropicProvider reports for input_tokens 1000, cache_creation 2000, cache_read 10000: the whole prompt.
    const usage = { inputTokens: 13_000, outputTokens: 500, cacheReadTokens: 10_000, cacheWriteTokens: 2_000 };
    // 1000×3 + 500×15 + 10000×0.30 + 2000×3.75 = 3000 + 7500 + 3000 + 7500 = 21000 per million.
    assertDollars(costOf(usage, modelInfo('anthropic', 'claude-sonnet-4-5')), 0.021);
  });

  test('Anthropic claude-opus-4-1 ($15 in, $75 out, $18.75 write, $1.50 read)', () => {
    const usage = { inputTokens: 130, outputTokens: 42, cacheReadTokens: 100, cacheWriteTokens: 20 };
    // 10×15 + 42×75 + 100×1.5 + 20×18.75 = 150 + 3150 + 150 + 375 = 3825 per million.
    assertDollars(costOf(usage, modelInfo('anthropic', 'claude-opus-4-1-20250805')), 0.003825);
  });

  test('OpenAI gpt-4o with cached prompt tokens ($2.50 in, $10 out, $1.25 cached)', () => {
    // prompt_tokens 10000 of which cached_tokens 4000.
    const usage = { inputTokens: 10_000, outputTokens: 1_000, cacheReadTokens: 4_000 };
    // 6000×2.5 + 1000×10 + 4000×1.25 = 15000 + 10000 + 5000 = 30000 per million.
    assertDollars(costOf(usage, modelInfo('openai', 'gpt-4o')), 0.03);
  });

  test('OpenAI gpt-5-mini, reasoning tokens being part of the output ($0.25 in, $2 out, $0.025 cached)', () => {
    const usage = { inputTokens: 200_000, outputTokens: 20_000, cacheReadTokens: 150_000 };
    // 50000×0.25 + 20000×2 + 150000×0.025 = 12500 + 40000 + 3750 = 56250 per million.
    assertDollars(costOf(usage, modelInfo('openai', 'gpt-5-mini')), 0.05625);
  });

  test('Gemini gemini-2.5-flash with thoughts in the output and cached content ($0.30 in, $2.50 out, $0.03 cached)', () => {
    // promptTokenCount 100000 incl. cachedContentTokenCount 60000; candidates 2000 + thoughts 3000.
    const usage = { inputTokens: 100_000, outputTokens: 5_000, cacheReadTokens: 60_000 };
    // 40000×0.30 + 5000×2.50 + 60000×0.03 = 12000 + 12500 + 1800 = 26300 per million.
    assertDollars(costOf(usage, modelInfo('gemini', 'gemini-2.5-flash')), 0.0263);
  });

  test('Gemini gemini-2.5-pro switches to long-context prices above 200k prompt tokens', () => {
    // At the threshold: base prices, 200000×1.25 + 1000×10 = 260000 per million.
    assertDollars(costOf({ inputTokens: 200_000, outputTokens: 1_000 }, modelInfo('gemini', 'gemini-2.5-pro')), 0.26);
    // Above it: 200000 uncached×2.50 + 10000×15 + 100000 cached×0.25 = 500000 + 150000 + 25000 per million.
    const long = { inputTokens: 300_000, outputTokens: 10_000, cacheReadTokens: 100_000 };
    assertDollars(costOf(long, modelInfo('gemini', 'gemini-2.5-pro')), 0.675);
  });

  test('openai-compatible with user prices and no cache price charges cached tokens as input', () => {
    const info = modelInfo('openai-compatible', 'deepseek-chat', { inputPrice: 0.27, outputPrice: 1.1 });
    // 600×0.27 + 400×0.27 (cached, no discount known) + 100×1.1 = 270 + 110 = 380 per million.
    assertDollars(costOf({ inputTokens: 1_000, outputTokens: 100, cacheReadTokens: 400 }, info), 0.00038);
    const withCachePrice = modelInfo('openai-compatible', 'deepseek-chat', { inputPrice: 0.27, outputPrice: 1.1, cacheReadPrice: 0.07 });
    // 600×0.27 + 400×0.07 + 100×1.1 = 162 + 28 + 110 = 300 per million.
    assertDollars(costOf({ inputTokens: 1_000, outputTokens: 100, cacheReadTokens: 400 }, withCachePrice), 0.0003);
  });

  test('unknown prices give an unknown cost, never zero; inconsistent counts never go negative', () => {
    assert.equal(costOf({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, modelInfo('openai-compatible', 'llama3')), undefined);
    // A window alone says nothing about prices; one known price is not enough either.
    assert.equal(costOf({ inputTokens: 10, outputTokens: 10 }, modelInfo('openai-compatible', 'llama3', { contextWindow: 32_000 })), undefined);
    assert.equal(costOf({ inputTokens: 10, outputTokens: 10 }, modelInfo('anthropic', 'claude-next', { inputPrice: 1 })), undefined);
    // Prices the user gives as zero (a local model) are known: the cost is zero.
    assert.equal(costOf({ inputTokens: 10, outputTokens: 10 }, modelInfo('openai-compatible', 'llama3', { inputPrice: 0, outputPrice: 0 })), 0);
    // A proxy reporting more cached tokens than prompt tokens: the uncached part is clamped at zero.
    const usage = { inputTokens: 100, outputTokens: 0, cacheReadTokens: 150 };
    // 150×0.30 = 45 per million.
    assertDollars(costOf(usage, modelInfo('anthropic', 'claude-sonnet-4')), 0.000045);
  });
});
