import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lastIndexAtOrBefore } from '../../../src/shared/sorted-search.js';

describe('lastIndexAtOrBefore', () => {
  test('finds the entry whose range holds a value, at every value and list size', () => {
    for (let size = 1; size <= 9; size++) {
      const starts = Array.from({ length: size }, (_, i) => i * 3);
      for (let value = -2; value <= size * 3 + 2; value++) {
        const expected = Math.max(
          0,
          starts.findLastIndex((start) => start <= value),
        );
        assert.equal(lastIndexAtOrBefore(starts, value), expected, `size ${size}, value ${value}`);
      }
    }
  });

  test('an empty list and equal starts', () => {
    assert.equal(lastIndexAtOrBefore([], 5), 0);
    assert.equal(lastIndexAtOrBefore([0, 4, 4, 9], 4), 2, 'the last of equal starts');
  });
});
