import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mergeThreeWay } from '../../../src/core/edit/three-way-merge.js';

const lines = (count: number, text: (i: number) => string) => `${Array.from({ length: count }, (_, i) => text(i)).join('\n')}\n`;

describe('three-way merge of an edit into a changed file', () => {
  test('changes to different lines are both kept', () => {
    assert.deepEqual(mergeThreeWay('a\nb\nc\nd\ne\n', 'a\nB\nc\nd\ne\n', 'a\nb\nc\nd\nE\n'), { kind: 'clean', text: 'a\nB\nc\nd\nE\n' });
  });

  test('different changes to the same line, or to touching lines, are conflicts with both sides shown', () => {
    const same = mergeThreeWay('a\nb\nc\n', 'a\nmodel\nc\n', 'a\nuser\nc\n');
    assert.equal(same.kind, 'conflict');
    if (same.kind !== 'conflict') return;
    assert.deepEqual(same.conflicts, [{ baseLine: 2, base: ['b'], ours: ['model'], theirs: ['user'] }]);
    assert.equal(same.resolve('ours'), 'a\nmodel\nc\n');
    assert.equal(same.resolve('theirs'), 'a\nuser\nc\n');
    assert.equal(mergeThreeWay('a\nb\nc\nd\n', 'a\nB\nc\nd\n', 'a\nb\nC\nd\n').kind, 'conflict');
    // An insertion right above a line the other side changed touches it.
    assert.equal(mergeThreeWay('a\nb\nc\n', 'a\nnew\nb\nc\n', 'a\nB\nc\n').kind, 'conflict');
  });

  test('the same change on both sides is no conflict, and with other changes beside it stays clean', () => {
    assert.deepEqual(mergeThreeWay('a\nb\nc\n', 'a\nB\nc\n', 'a\nB\nc\n'), { kind: 'clean', text: 'a\nB\nc\n' });
    assert.deepEqual(mergeThreeWay('a\nb\nc\nd\ne\n', 'a\nB\nc\nd\ne\n', 'a\nB\nc\nd\nE\n'), { kind: 'clean', text: 'a\nB\nc\nd\nE\n' });
  });

  test("the result takes the user's line endings and BOM; line endings alone are no change", () => {
    assert.deepEqual(mergeThreeWay('a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n', '\uFEFFa\nb\nc\n'), { kind: 'clean', text: '\uFEFFa\nB\nc\n' });
    assert.deepEqual(mergeThreeWay('\uFEFFa\nb\nc\n', '\uFEFFa\nB\nc\n', 'a\r\nb\r\nc\r\nd\r\n'), { kind: 'clean', text: 'a\r\nB\r\nc\r\nd\r\n' });
  });

  test('a final newline the user removed stays removed; one the model added at the end is a change at the end', () => {
    assert.deepEqual(mergeThreeWay('a\nb\nc\n', 'A\nb\nc\n', 'a\nb\nc'), { kind: 'clean', text: 'A\nb\nc' });
    assert.equal(mergeThreeWay('a\nb\nc', 'a\nb\nc\n', 'a\nb\nC').kind, 'conflict');
  });

  test('a file the user emptied conflicts with an edit of it', () => {
    assert.equal(mergeThreeWay('a\nb\n', 'a\nB\n', '').kind, 'conflict');
  });

  test('a big file with changes far apart merges without comparing every line three ways', () => {
    const base = lines(200_000, (i) => `line ${i}`);
    const ours = base.replace('line 150000\n', 'line 150000 (model)\n');
    const theirs = `top\n${base.replace('line 10\n', 'line 10 (user)\n')}`;
    const merged = mergeThreeWay(base, ours, theirs);
    assert.equal(merged.kind, 'clean');
    assert.equal(merged.kind === 'clean' && merged.text, `top\n${ours.replace('line 10\n', 'line 10 (user)\n')}`);
  });

  test('repeated identical lines are merged by position, each change where it was made', () => {
    const base = lines(5_000, () => 'x');
    const ours = base.replace(/^/, 'model\n');
    const theirs = `${base}user\n`;
    assert.deepEqual(mergeThreeWay(base, ours, theirs), { kind: 'clean', text: `model\n${base}user\n` });
  });

  test('changes too large to merge are not merged (the edit is refused instead)', () => {
    const base = lines(3_000, (i) => `line ${i}`);
    const ours = lines(3_000, (i) => (i % 2 === 0 ? `line ${i} (model)` : `line ${i}`));
    const theirs = lines(3_000, (i) => (i % 2 === 1 ? `line ${i} (user)` : `line ${i}`));
    assert.deepEqual(mergeThreeWay(base, ours, theirs), { kind: 'too_large' });
  });
});
