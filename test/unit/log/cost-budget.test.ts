import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CostBudget } from '../../../src/core/log/cost-budget.js';

describe('CostBudget', () => {
  test('a request starts while what was spent plus the requests in flight (each at the largest cost so far) is below the limit', () => {
    const budget = new CostBudget(1);
    const first = budget.reserve();
    assert.ok(first, 'nothing spent: the first request starts');
    budget.charge(0.4);
    first.release();
    const a = budget.reserve();
    assert.ok(a, '0.4 spent, nothing in flight');
    assert.ok(budget.reserve(), '0.4 spent + 0.4 in flight < 1');
    assert.equal(budget.reserve(), undefined, '0.4 spent + 2 × 0.4 in flight ≥ 1');
  });

  test('parallel reservations stop at the limit; released ones make room again only if nothing was spent', () => {
    const budget = new CostBudget(1, 0.3);
    budget.charge(0.2); // spent 0.5, largest request 0.2
    const a = budget.reserve(); // 0.5 + 0 < 1
    const b = budget.reserve(); // 0.5 + 0.2 < 1
    const c = budget.reserve(); // 0.5 + 0.4 < 1
    assert.ok(a && b && c);
    assert.equal(budget.reserve(), undefined, '0.5 + 3 × 0.2 ≥ 1');
    assert.equal(budget.exhausted(), true);
    c.release();
    c.release(); // twice is once
    assert.ok(budget.reserve(), 'a request that ended without cost gives its place back');
  });

  test('once spent, nothing starts until the user raises the limit by one allowance', () => {
    const budget = new CostBudget(0.15, 0.2);
    assert.equal(budget.reserve(), undefined);
    assert.equal(budget.total, 0.2);
    budget.raise();
    assert.equal(budget.currentLimit, 0.3);
    assert.ok(budget.reserve());
  });

  test('unknown, zero or invalid costs charge nothing', () => {
    const budget = new CostBudget(1);
    budget.charge(Number.NaN);
    budget.charge(-1);
    budget.charge(0);
    assert.equal(budget.total, 0);
  });
});
