import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogModelIds, findModelInfo, modelInfo } from '../../../src/core/providers/model-catalog.js';

describe('model catalogue lookups', () => {
  test('every model the brief names is in the catalogue', () => {
    const expected = {
      anthropic: ['claude-opus-4-1', 'claude-opus-4', 'claude-sonnet-4-5', 'claude-sonnet-4', 'claude-haiku-4-5', 'claude-3-5-haiku'],
      openai: ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o3', 'o4-mini'],
      gemini: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.0-flash'],
      // Services whose /models names ids only: the catalogue gives their windows and prices.
      deepseek: ['deepseek-chat', 'deepseek-reasoner'],
      xai: ['grok-4', 'grok-4-fast-reasoning', 'grok-code-fast-1', 'grok-3-mini'],
      cerebras: ['gpt-oss-120b', 'llama-3.3-70b', 'qwen-3-32b'],
    } as const;
    for (const [provider, ids] of Object.entries(expected) as Array<[keyof typeof expected, readonly string[]]>) {
      for (const id of ids) assert.ok(catalogModelIds(provider).includes(id), `${provider}/${id}`);
    }
    assert.deepEqual(catalogModelIds('openai-compatible'), []);
  });

  test('every entry is sane: positive limits, output within the window, non-negative prices', () => {
    for (const provider of ['anthropic', 'openai', 'gemini', 'deepseek', 'xai', 'cerebras'] as const) {
      assert.ok(catalogModelIds(provider).length > 0, provider);
      for (const id of catalogModelIds(provider)) {
        const info = findModelInfo(provider, id)!;
        assert.equal(info.id, id);
        assert.ok(info.contextWindow > 0 && info.maxOutputTokens > 0 && info.maxOutputTokens <= info.contextWindow, id);
        assert.ok(info.inputPrice > 0 && info.outputPrice >= info.inputPrice, id);
        if (info.cacheReadPrice !== undefined) assert.ok(info.cacheReadPrice < info.inputPrice, `${id} cache reads are a discount`);
        assert.equal('aliases' in info, false);
      }
    }
  });

  test('known values', () => {
    const sonnet = findModelInfo('anthropic', 'claude-sonnet-4-5')!;
    assert.deepEqual(
      [
        sonnet.contextWindow,
        sonnet.inputPrice,
        sonnet.outputPrice,
        sonnet.cacheWritePrice,
        sonnet.cacheReadPrice,
        sonnet.supportsReasoning,
        sonnet.supportsPromptCache,
      ],
      [200_000, 3, 15, 3.75, 0.3, true, true],
    );
    const haiku35 = findModelInfo('anthropic', 'claude-3-5-haiku')!;
    assert.equal(haiku35.supportsReasoning, false);
    assert.equal(findModelInfo('openai', 'gpt-4o')!.supportsReasoning, false);
    assert.equal(findModelInfo('openai', 'o4-mini')!.supportsReasoning, true);
    assert.equal(findModelInfo('gemini', 'gemini-2.0-flash')!.supportsReasoning, false);
    assert.equal(findModelInfo('gemini', 'gemini-2.5-pro')!.contextWindow, 1_048_576);
  });

  test('dated snapshots, -latest, previews, Vertex @dates and models/ prefixes resolve to their model', () => {
    const cases: Array<[Parameters<typeof findModelInfo>[0], string, string]> = [
      ['anthropic', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
      ['anthropic', 'claude-opus-4-20250514', 'claude-opus-4'],
      ['anthropic', 'claude-opus-4-1@20250805', 'claude-opus-4-1'],
      ['anthropic', 'claude-3-5-haiku-latest', 'claude-3-5-haiku'],
      ['anthropic', 'claude-sonnet-4-0', 'claude-sonnet-4'],
      ['openai', 'gpt-4o-2024-08-06', 'gpt-4o'],
      ['openai', 'gpt-4o-mini-2024-07-18', 'gpt-4o-mini'],
      ['openai', 'GPT-5-Mini', 'gpt-5-mini'],
      ['openai', 'gpt-5-chat-latest', 'gpt-5'],
      ['gemini', 'models/gemini-2.5-flash', 'gemini-2.5-flash'],
      ['gemini', 'gemini-2.5-flash-lite-preview-06-17', 'gemini-2.5-flash-lite'],
      ['gemini', 'gemini-2.5-pro-preview-05-06', 'gemini-2.5-pro'],
      ['gemini', 'gemini-2.0-flash-001', 'gemini-2.0-flash'],
    ];
    for (const [provider, given, expected] of cases) assert.equal(findModelInfo(provider, given)?.id, expected, given);
  });

  test("near misses outside a family are not guessed: a different model is unknown, not its cousin's prices", () => {
    assert.equal(findModelInfo('openai', 'gpt-4o-audio-preview-xyz'), undefined);
    assert.equal(findModelInfo('anthropic', 'claude-opus-4-9')?.inferredFrom, 'claude-opus-4-5', 'a new version of a family is inferred, and says so');
    assert.equal(findModelInfo('anthropic', 'claude-opus-4-5')?.inferredFrom, undefined, 'a listed model is not inferred');
    assert.equal(findModelInfo('openai', 'claude-sonnet-4-5'), undefined, 'catalogues are per provider');
    assert.equal(findModelInfo('openai-compatible', 'gpt-4o'), undefined);
    assert.equal(findModelInfo('openai', 'toString'), undefined, 'no prototype keys');
  });

  test("modelInfo falls back to the provider's defaults with unknown prices", () => {
    const unknown = modelInfo('anthropic', 'claude-next');
    assert.equal(unknown.id, 'claude-next');
    assert.equal(unknown.contextWindow, 200_000);
    assert.equal(unknown.inputPrice, undefined);
    assert.equal(unknown.outputPrice, undefined);
    assert.equal(unknown.supportsPromptCache, true);
    const local = modelInfo('openai-compatible', 'qwen3:8b');
    assert.deepEqual([local.id, local.contextWindow, local.inputPrice, local.outputPrice], ['qwen3:8b', 128_000, undefined, undefined]);
  });

  test('overrides win over the catalogue and the defaults; undefined overrides change nothing', () => {
    const local = modelInfo('openai-compatible', 'deepseek-chat', { contextWindow: 64_000, inputPrice: 0.27, outputPrice: 1.1, cacheReadPrice: 0.07 });
    assert.deepEqual([local.contextWindow, local.maxOutputTokens, local.inputPrice, local.outputPrice, local.cacheReadPrice], [64_000, 8_192, 0.27, 1.1, 0.07]);
    const corrected = modelInfo('openai', 'gpt-4o', { outputPrice: 12, contextWindow: undefined });
    assert.deepEqual([corrected.id, corrected.contextWindow, corrected.inputPrice, corrected.outputPrice], ['gpt-4o', 128_000, 2.5, 12]);
  });
});
