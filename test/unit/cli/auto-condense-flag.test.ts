import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCliArgs } from '../../../src/cli/args.js';

test('--auto-condense PERCENT becomes the share of the window at which the history is condensed', () => {
  assert.equal(parseCliArgs(['--auto-condense', '60', 'task'], '/w').autoCondenseAt, 0.6);
  assert.equal(parseCliArgs(['task'], '/w').autoCondenseAt, undefined);
  for (const bad of ['0', '5', '101', 'many', ''])
    assert.throws(() => parseCliArgs(['--auto-condense', bad, 'task'], '/w'), /--auto-condense must be a percentage from 10 to 100/);
});
