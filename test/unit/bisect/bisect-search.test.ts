import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { searchFirstFailure, type StateVerdict } from '../../../src/core/bisect/bisect-search.js';

/** States 0..count-1 that fail from `firstBad` on; `skipped` cannot be tested. Records the order tested. */
function states(count: number, firstBad: number, skipped: readonly number[] = []) {
  const tested: number[] = [];
  const test = async (index: number): Promise<StateVerdict> => {
    tested.push(index);
    if (skipped.includes(index)) return 'skip';
    return index >= firstBad ? 'fail' : 'pass';
  };
  return { tested, test, count };
}

describe('searchFirstFailure', () => {
  test('binary: finds every first failing state of 2..40 states within ceil(log2(n)) runs, never testing the ends', async () => {
    for (let count = 2; count <= 40; count++) {
      for (let firstBad = 1; firstBad < count; firstBad++) {
        const s = states(count, firstBad);
        assert.deepEqual(await searchFirstFailure(count, 'binary', s.test), { good: firstBad - 1, bad: firstBad }, `${count}/${firstBad}`);
        assert.ok(s.tested.length <= Math.ceil(Math.log2(count)), `${count}/${firstBad}: ${s.tested.length} runs`);
        assert.ok(!s.tested.includes(0) && !s.tested.includes(count - 1));
        assert.equal(new Set(s.tested).size, s.tested.length, 'no state twice');
      }
    }
  });

  test('linear: tests in order and stops at the first failing state', async () => {
    const s = states(8, 5);
    assert.deepEqual(await searchFirstFailure(8, 'linear', s.test), { good: 4, bad: 5 });
    assert.deepEqual(s.tested, [1, 2, 3, 4, 5]);
  });

  test('a skipped state is left out: its neighbour is tried, and the bounds span it when it sits between', async () => {
    // 10 states, failing from 6 on; 5 and 6 cannot be tested: the cause is one of the steps to 7.
    const s = states(10, 6, [5, 6]);
    assert.deepEqual(await searchFirstFailure(10, 'binary', s.test), { good: 4, bad: 7 });
    const l = states(10, 6, [5, 6]);
    assert.deepEqual(await searchFirstFailure(10, 'linear', l.test), { good: 4, bad: 7 });
    // A skipped state away from the change does not widen the bounds.
    const far = states(10, 7, [2, 3]);
    assert.deepEqual(await searchFirstFailure(10, 'binary', far.test), { good: 6, bad: 7 });
    // Every state between skipped: the bounds are the ends.
    const all = states(5, 2, [1, 2, 3]);
    assert.deepEqual(await searchFirstFailure(5, 'binary', all.test), { good: 0, bad: 4 });
  });

  test('stops when its signal is aborted, and refuses fewer than two states', async () => {
    const controller = new AbortController();
    const s = states(100, 50);
    const test = async (index: number) => {
      controller.abort(new Error('stopped'));
      return s.test(index);
    };
    await assert.rejects(searchFirstFailure(100, 'binary', test, controller.signal), /stopped/);
    await assert.rejects(searchFirstFailure(1, 'binary', s.test), /needs a passing first state/);
  });
});
