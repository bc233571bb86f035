import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contextAction, requestBudget } from '../../../src/core/context/context-window.js';

describe('context window', () => {
  const limits = { contextWindow: 100_000, maxOutputTokens: 8_000 };
  const policy = { autoCondenseThreshold: 0.8 };

  test('the budget keeps room for the answer, at most a quarter of the window', () => {
    assert.equal(requestBudget(limits), 92_000);
    assert.equal(requestBudget({ contextWindow: 10_000, maxOutputTokens: 8_000 }), 7_500);
  });

  test('condenses past the threshold, truncates past the budget or right after a summary', () => {
    assert.equal(contextAction(70_000, limits, policy, false), 'none');
    assert.equal(contextAction(85_000, limits, policy, false), 'condense');
    assert.equal(contextAction(85_000, limits, policy, true), 'none');
    assert.equal(contextAction(95_000, limits, policy, false), 'condense');
    assert.equal(contextAction(95_000, limits, policy, true), 'truncate');
    assert.equal(contextAction(95_000, limits, { autoCondenseThreshold: 0 }, false), 'truncate');
  });
});
