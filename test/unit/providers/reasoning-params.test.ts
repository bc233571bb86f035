import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  anthropicThinkingPlan,
  EFFORT_BUDGET_TOKENS,
  MIN_ANTHROPIC_THINKING_BUDGET,
  reasoningEffort,
  thinkingBudget,
} from '../../../src/core/providers/reasoning-params.js';

describe('reasoning parameters', () => {
  test('an effort maps to a budget and a budget to an effort', () => {
    assert.equal(thinkingBudget({}), EFFORT_BUDGET_TOKENS.medium);
    assert.equal(thinkingBudget({ effort: 'high' }), EFFORT_BUDGET_TOKENS.high);
    assert.equal(thinkingBudget({ effort: 'high', budgetTokens: 3000 }), 3000, 'an explicit budget wins');
    assert.equal(reasoningEffort({}), 'medium');
    assert.equal(reasoningEffort({ budgetTokens: 1_000 }), 'low');
    assert.equal(reasoningEffort({ budgetTokens: 10_000 }), 'medium');
    assert.equal(reasoningEffort({ budgetTokens: 32_000 }), 'high');
    assert.equal(reasoningEffort({ effort: 'low', budgetTokens: 32_000 }), 'low', 'an explicit effort wins');
  });

  test("Anthropic: max_tokens grows to fit the budget plus an answer, within the model's limit", () => {
    assert.deepEqual(anthropicThinkingPlan({ budgetTokens: 4000 }, undefined, 8192, 64_000), { maxTokens: 12_192, budgetTokens: 4000 });
    assert.deepEqual(anthropicThinkingPlan({ budgetTokens: 30_000 }, undefined, 8192, 32_000), { maxTokens: 32_000, budgetTokens: 30_000 });
    // The budget cannot reach max_tokens: it shrinks to 80% of what the model allows.
    assert.deepEqual(anthropicThinkingPlan({ budgetTokens: 40_000 }, undefined, 8192, 32_000), { maxTokens: 32_000, budgetTokens: 25_600 });
  });

  test("Anthropic: a user's output cap is kept and the budget fits inside it", () => {
    assert.deepEqual(anthropicThinkingPlan({ effort: 'high' }, 10_000, 8192, 64_000), { maxTokens: 10_000, budgetTokens: 8_000 });
    assert.deepEqual(anthropicThinkingPlan({ budgetTokens: 2_000 }, 10_000, 8192, 64_000), { maxTokens: 10_000, budgetTokens: 2_000 });
  });

  test('Anthropic: small budgets are raised to the minimum; impossible or zero budgets turn thinking off', () => {
    assert.equal(anthropicThinkingPlan({ budgetTokens: 100 }, undefined, 8192, 64_000)?.budgetTokens, MIN_ANTHROPIC_THINKING_BUDGET);
    assert.equal(anthropicThinkingPlan({ effort: 'low' }, 1_000, 8192, 64_000), undefined);
    assert.equal(anthropicThinkingPlan({ budgetTokens: 0 }, undefined, 8192, 64_000), undefined);
  });
});
