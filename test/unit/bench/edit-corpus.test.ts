// Correctness of the edit engine on the committed SEARCH/REPLACE corpus (bench/fixtures/edits/):
// no edit may land anywhere but where the model meant, and every ambiguous or wrong edit is
// refused. Timing lives in bench/edits.ts, never here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applySearchReplace } from '../../../src/core/edit/search-replace-engine.js';
import { judge, loadEditCorpus } from '../../../bench/fixtures/edit-corpus.js';

const cases = loadEditCorpus();

describe('SEARCH/REPLACE corpus', () => {
  test('has at least 200 cases, with cases that must be refused', () => {
    assert.ok(cases.length >= 200, `only ${cases.length} cases`);
    assert.ok(cases.some((c) => c.expect === 'refuse'));
    for (const c of cases) if (c.expect === 'apply') assert.equal(typeof c.expected, 'string', `${c.id} has no expected file`);
  });

  test('no case is applied wrongly', () => {
    const wrong = cases.filter((c) => judge(c, applySearchReplace(c.original, c.diff)) === 'wrong').map((c) => `${c.id} (${c.description})`);
    assert.deepEqual(wrong, []);
  });

  test('every case that must be refused is refused', () => {
    const applied = cases.filter((c) => c.expect === 'refuse' && applySearchReplace(c.original, c.diff).ok).map((c) => c.id);
    assert.deepEqual(applied, []);
  });
});
