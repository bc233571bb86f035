// The catalogue file the user fetched: read entry by entry, put over the built-in catalogue, and
// ignored as a whole when it is not a catalogue.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { findModelInfo, applyFetchedCatalog, openAiApiFor } from '../../../src/core/providers/model-catalog.js';
import { FETCHED_CATALOG_FILE, loadFetchedCatalog, parseCatalogFile } from '../../../src/core/providers/model-catalog-updates.js';

const ENTRY = {
  contextWindow: 300_000,
  maxOutputTokens: 50_000,
  inputPrice: 2,
  outputPrice: 9,
  supportsReasoning: true,
  supportsImages: false,
  supportsPromptCache: true,
};

describe('fetched model catalogue', () => {
  afterEach(() => applyFetchedCatalog({}));

  test('each entry is checked on its own; what is wrong is named', () => {
    const parsed = parseCatalogFile({
      version: 1,
      models: {
        anthropic: {
          'claude-opus-5': ENTRY,
          'Claude Opus': ENTRY,
          'claude-bad-price': { ...ENTRY, outputPrice: Number.NaN },
          'claude-no-flag': { ...ENTRY, supportsImages: 'yes' },
          'claude-long': { ...ENTRY, longContextPricing: { thresholdTokens: 200_000, inputPrice: 4 } },
          'claude-aliases': { ...ENTRY, aliases: [1] },
        },
        openai: [],
      },
    });
    assert.equal(parsed.count, 1);
    assert.deepEqual(Object.keys(parsed.models.anthropic ?? {}), ['claude-opus-5']);
    assert.deepEqual(parsed.problems, [
      'anthropic/Claude Opus: a model id is lower-case letters, digits and . _ : @ / -',
      'anthropic/claude-bad-price: outputPrice must be a price (US dollars per million tokens, 0 or more)',
      'anthropic/claude-no-flag: supportsImages must be true or false',
      'anthropic/claude-long: longContextPricing must have thresholdTokens, inputPrice and outputPrice',
      'anthropic/claude-aliases: aliases must be a list of ids',
      'openai: expected an object of models',
    ]);
    assert.throws(() => parseCatalogFile({ version: 2, models: {} }), /not a Smith model catalogue/);
    assert.throws(() => parseCatalogFile([]), /not a Smith model catalogue/);
  });

  test('a fetched entry wins over the built-in one and over an inference; prototype keys are not models', () => {
    assert.equal(findModelInfo('anthropic', 'claude-opus-5')?.inferredFrom, 'claude-opus-4-5');
    applyFetchedCatalog(
      parseCatalogFile({ version: 1, models: { anthropic: { 'claude-opus-5': ENTRY, 'claude-opus-4-5': { ...ENTRY, inputPrice: 7 } } } }).models,
    );
    assert.deepEqual(
      [findModelInfo('anthropic', 'claude-opus-5')?.contextWindow, findModelInfo('anthropic', 'claude-opus-5')?.inferredFrom],
      [300_000, undefined],
    );
    assert.equal(findModelInfo('anthropic', 'claude-opus-4-5')?.inputPrice, 7);
    assert.equal(findModelInfo('anthropic', 'claude-opus-5-1')?.inferredFrom, 'claude-opus-5', 'a fetched model is a family member too');
    const parsed = parseCatalogFile(JSON.parse('{"version":1,"models":{"openai":{"__proto__":{"contextWindow":1},"constructor":{}}}}'));
    assert.equal(parsed.count, 0);
    assert.equal(findModelInfo('openai', 'constructor'), undefined);
  });

  test("a fetched entry's api says which OpenAI API serves it; a bad one is named", () => {
    assert.equal(openAiApiFor('openai', 'gpt-7-turbo'), 'chat-completions');
    const parsed = parseCatalogFile({
      version: 1,
      models: { openai: { 'gpt-7-turbo': { ...ENTRY, api: 'responses' }, 'gpt-7-odd': { ...ENTRY, api: 'assistants' } } },
    });
    assert.deepEqual(parsed.problems, ['openai/gpt-7-odd: api must be one of chat-completions, responses']);
    applyFetchedCatalog(parsed.models);
    assert.equal(openAiApiFor('openai', 'gpt-7-turbo'), 'responses');
    assert.equal(openAiApiFor('azure-openai', 'gpt-7-turbo'), 'responses', 'an Azure deployment named after its model');
    assert.equal(openAiApiFor('openai', 'gpt-7-turbo', 'chat-completions'), 'chat-completions', 'the setting wins');
    assert.equal(openAiApiFor('openrouter', 'gpt-7-turbo'), 'chat-completions', 'another service is not OpenAI');
  });

  test('a stored file that is missing changes nothing; a corrupt one is reported and ignored', () => {
    const dir = mkdtempSync(join(tmpdir(), 'smith-catalog-'));
    assert.deepEqual(loadFetchedCatalog(dir), { count: 0, problems: [] });
    writeFileSync(join(dir, FETCHED_CATALOG_FILE), '{"version":1,"models":{"anthropic":');
    const corrupt = loadFetchedCatalog(dir);
    assert.equal(corrupt.count, 0);
    assert.match(corrupt.problems[0] ?? '', /model-catalog\.json: .*JSON/);
    writeFileSync(join(dir, FETCHED_CATALOG_FILE), JSON.stringify({ version: 1, models: { gemini: { 'gemini-4-pro': ENTRY } } }));
    assert.equal(loadFetchedCatalog(dir).count, 1);
    assert.equal(findModelInfo('gemini', 'gemini-4-pro')?.contextWindow, 300_000);
  });
});
