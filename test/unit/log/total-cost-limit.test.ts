import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TotalCostLimit } from '../../../src/core/log/total-cost-limit.js';

describe('the total cost limit over the tasks running at once', () => {
  test('sums what every counted task spent, from what each had cost when it joined', () => {
    const pool = new TotalCostLimit(() => 1);
    const a = pool.join(0.25);
    const b = pool.join();
    a.charge(0.25);
    b.charge(0.4);
    assert.equal(a.total, 0.9);
    assert.equal(b.total, 0.9);
    assert.equal(a.spent, 0.5);
    assert.equal(a.exhausted(), false);
    b.charge(0.1);
    assert.equal(a.exhausted(), true, 'the sum reached the limit: every task sees it');
    assert.equal(b.exhausted(), true);
    assert.equal(a.reserve(), undefined);
  });

  test('a task that leaves takes its cost out of the sum', () => {
    const pool = new TotalCostLimit(() => 1);
    const a = pool.join();
    const b = pool.join();
    a.charge(0.7);
    b.charge(0.4);
    assert.equal(b.exhausted(), true);
    a.leave();
    assert.ok(Math.abs(b.total - 0.4) < 1e-12);
    assert.equal(b.exhausted(), false);
  });

  test('"go on" adds one allowance, once for all the tasks that asked at the same limit', () => {
    const pool = new TotalCostLimit(() => 1);
    const a = pool.join();
    const b = pool.join();
    a.charge(1);
    const seen = a.currentLimit;
    assert.equal(seen, 1);
    a.raise(seen);
    b.raise(seen);
    assert.equal(a.currentLimit, 2, 'the second answer to the same limit adds nothing more');
    assert.equal(b.exhausted(), false);
    b.charge(1);
    b.raise(b.currentLimit);
    assert.equal(a.currentLimit, 3);
    // Once no task is counted, the allowances given are forgotten.
    a.leave();
    b.leave();
    assert.equal(pool.join().currentLimit, 1);
  });

  test('reads the setting at every check: a changed limit applies at once; none (0, absent) never stops', () => {
    let limit: number | undefined = 1;
    const pool = new TotalCostLimit(() => limit);
    const a = pool.join();
    a.charge(1.5);
    assert.equal(a.exhausted(), true);
    limit = 2;
    assert.equal(a.exhausted(), false);
    for (const none of [0, undefined, Number.NaN, -1]) {
      limit = none;
      assert.equal(a.exhausted(), false, String(none));
      assert.equal(a.currentLimit, Number.POSITIVE_INFINITY);
    }
  });

  test('requests in flight count at the largest request so far, so tasks started together cannot all pass the limit', () => {
    const pool = new TotalCostLimit(() => 1);
    const a = pool.join();
    const b = pool.join();
    a.charge(0.4);
    const first = a.reserve();
    const second = b.reserve();
    assert.ok(first && second, 'each started while the sum with the requests in flight was below the limit (0.4, then 0.8)');
    assert.equal(b.reserve(), undefined, 'a third would start at 0.4 + 2 × 0.4 = 1.2');
    first.release();
    first.release();
    assert.ok(a.reserve(), 'one released (once, however often release is called): 0.8 again');
  });

  test('charges that are not a cost are ignored', () => {
    const pool = new TotalCostLimit(() => 1);
    const a = pool.join(Number.NaN);
    for (const cost of [Number.NaN, -1, 0, Number.POSITIVE_INFINITY]) a.charge(cost);
    assert.equal(a.total, 0);
  });
});
