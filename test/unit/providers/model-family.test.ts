// Models the catalogue has not seen take the facts of the nearest known model of their family,
// marked as inferred; ids outside any family stay unknown.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BUILT_IN_CATALOG } from '../../../src/core/providers/model-catalog-data.js';
import { findModelInfo, modelInfo } from '../../../src/core/providers/model-catalog.js';
import { familyOf, nearestOfFamily } from '../../../src/core/providers/model-family.js';

describe('model families', () => {
  test('each vendor’s naming is read as a family and a version', () => {
    assert.deepEqual(familyOf('anthropic', 'claude-opus-4-5'), { family: 'opus', version: [4, 5] });
    assert.deepEqual(familyOf('anthropic', 'claude-3-7-sonnet'), { family: 'sonnet', version: [3, 7] });
    assert.deepEqual(familyOf('anthropic', 'claude-haiku-5'), { family: 'haiku', version: [5, 0] });
    assert.deepEqual(familyOf('openai', 'gpt-5.2-codex'), { family: 'gpt-', version: [5, 2] });
    assert.deepEqual(familyOf('openai', 'gpt-5.1-codex-mini'), { family: 'gpt-codex-mini', version: [5, 1] });
    assert.equal(nearestOfFamily('openai', 'gpt-5.2-codex-mini', Object.keys(BUILT_IN_CATALOG.openai)), 'gpt-5.1-codex-mini');
    assert.deepEqual(familyOf('openai', 'o5-mini'), { family: 'o-mini', version: [5] });
    assert.deepEqual(familyOf('gemini', 'gemini-3.5-flash-lite'), { family: 'flash-lite', version: [3, 5] });
    assert.deepEqual(familyOf('xai', 'grok-5'), { family: '', version: [5, 0] });
    assert.equal(familyOf('anthropic', 'claude-next'), undefined);
    assert.equal(familyOf('openai', 'gpt-4o-audio-preview-xyz'), undefined);
    assert.equal(familyOf('deepseek', 'deepseek-v4'), undefined, 'a vendor without a naming scheme infers nothing');
  });

  test('the newest known version not newer than the id is taken; versions compare part by part', () => {
    const known = ['claude-opus-4-1', 'claude-opus-4-5', 'claude-opus-4', 'claude-sonnet-4-5'];
    assert.equal(nearestOfFamily('anthropic', 'claude-opus-4-7', known), 'claude-opus-4-5');
    assert.equal(nearestOfFamily('anthropic', 'claude-opus-4-3', known), 'claude-opus-4-1');
    assert.equal(nearestOfFamily('anthropic', 'claude-opus-4-10', known), 'claude-opus-4-5', '4.10 is newer than 4.5');
    assert.equal(nearestOfFamily('anthropic', 'claude-opus-3', known), 'claude-opus-4', 'older than all known: the oldest known');
    assert.equal(nearestOfFamily('anthropic', 'claude-haiku-9', known), undefined, 'no known member of the family');
  });

  test('an unknown model of a known family gets a window and prices, marked as inferred, through every lookup', () => {
    const opus = findModelInfo('anthropic', 'claude-opus-4-7-20260301');
    assert.equal(opus?.inferredFrom, 'claude-opus-4-5');
    assert.equal(opus?.id, 'claude-opus-4-7-20260301', 'the id stays the one asked for');
    assert.equal(opus?.inputPrice, BUILT_IN_CATALOG.anthropic['claude-opus-4-5']?.inputPrice);
    const bedrock = findModelInfo('bedrock', 'us.anthropic.claude-sonnet-4-7-20260101-v1:0');
    assert.equal(bedrock?.inferredFrom, 'claude-sonnet-4-5');
    const mini = modelInfo('openai', 'gpt-5.2-mini');
    assert.equal(mini.inferredFrom, 'gpt-5-mini');
    assert.equal(mini.contextWindow, BUILT_IN_CATALOG.openai['gpt-5-mini']?.contextWindow);
    assert.equal(findModelInfo('gemini', 'gemini-3.5-pro-preview')?.inferredFrom, 'gemini-3-pro');
    assert.equal(findModelInfo('openai-compatible', 'claude-opus-4-7'), undefined, 'a service without a catalogue infers nothing');
  });

  test('what the user or the provider says wins over an inference', () => {
    const told = modelInfo('anthropic', 'claude-opus-4-7', { contextWindow: 1_000_000 }, { id: 'claude-opus-4-7', inputPrice: 4 });
    assert.equal(told.contextWindow, 1_000_000);
    assert.equal(told.inputPrice, 4);
  });
});
