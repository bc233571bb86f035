import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUsd } from '../../../src/shared/money.js';

test('formatUsd keeps the digits an amount needs, at least the minimum, at most six', () => {
  assert.equal(formatUsd(0.0025), '$0.0025');
  assert.equal(formatUsd(0.15), '$0.15');
  assert.equal(formatUsd(0.5), '$0.50');
  assert.equal(formatUsd(3), '$3.00');
  assert.equal(formatUsd(0.000001), '$0.000001');
  assert.equal(formatUsd(0.202, 4), '$0.2020');
  assert.equal(formatUsd(0.00251, 4), '$0.00251');
  assert.equal(formatUsd(1 / 3), '$0.333333');
  assert.equal(formatUsd(0), '$0.00');
});
