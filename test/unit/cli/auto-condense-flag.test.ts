import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCliArgs } from '../../../src/cli/args.js';

test('--auto-condense PERCENT becomes the share of the window at which the history is condensed', () => {
  assert.equal(parseCliArgs(['--auto-condense', '60', 'task'], '/w').autoCondenseAt, 0.6);
  assert.equal(parseCliArgs(['task'], '/w').autoCondenseAt, undefined);
  for (const bad of ['0', '5', '101', 'many', ''])
    assert.throws(() => parseCliArgs(['--auto-condense', bad, 'task'], '/w'), /--auto-condense must be a percentage from 10 to 100/);
});

test('--auto-condense TOKENS (a count of 1000 or more, or "120k") condenses at a fixed size; "60%" is a share', () => {
  assert.deepEqual(
    [parseCliArgs(['--auto-condense', '120000', 't'], '/w').autoCondenseTokens, parseCliArgs(['--auto-condense', '120000', 't'], '/w').autoCondenseAt],
    [120_000, undefined],
  );
  assert.equal(parseCliArgs(['--auto-condense', '120k', 't'], '/w').autoCondenseTokens, 120_000);
  assert.equal(parseCliArgs(['--auto-condense', '1.5K', 't'], '/w').autoCondenseTokens, 1_500);
  assert.equal(parseCliArgs(['--auto-condense', '60%', 't'], '/w').autoCondenseAt, 0.6);
  for (const bad of ['500', '150%', '5%', '%', '-3000', '1e400', 'k'])
    assert.throws(
      () => parseCliArgs([`--auto-condense=${bad}`, 't'], '/w'),
      /--auto-condense must be a percentage from 10 to 100 \("60%"\) or a number of tokens/,
      bad,
    );
});

test('--condense-model and --condense-profile name who writes the summaries', () => {
  const options = parseCliArgs(['--condense-model', 'claude-haiku-4-5', '--condense-profile', 'cheap', 't'], '/w');
  assert.deepEqual([options.condenseModel, options.condenseProfile], ['claude-haiku-4-5', 'cheap']);
});
