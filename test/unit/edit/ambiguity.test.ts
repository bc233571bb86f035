import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyFails, applyOk, clineBlock, diffOf, lines, rooBlock } from './edit-test-helpers.js';

const NOTHING_CHANGED = 'Nothing was changed: the blocks of one replace_in_file call are applied all together or not at all.';
const ADD_CONTEXT = 'Add more surrounding lines to the SEARCH part (for example the lines just above or below) so that it matches exactly one place.';

const TWICE = lines('let x = 1;', 'a();', 'let x = 1;', 'b();', '');

describe('ambiguous SEARCH text is refused', () => {
  test('an exact match in two places', () => {
    const failure = applyFails(TWICE, clineBlock('let x = 1;', 'let x = 2;'));
    assert.equal(
      failure.error,
      lines(
        'SEARCH block 1 of 1 occurs 2 times in the file (matching exactly), at lines 1 and 3, so it is ambiguous and was not applied.',
        ADD_CONTEXT,
        NOTHING_CHANGED,
      ),
    );
    assert.equal(failure.blockIndex, 0);
  });

  test('the message counts every occurrence', () => {
    const failure = applyFails(lines('}', 'a', '}', 'b', '}', ''), clineBlock('}', '};'));
    assert.match(failure.error, /^SEARCH block 1 of 1 occurs 3 times in the file \(matching exactly\), at lines 1, 3 and 5,/);
  });

  test('a tolerant match in two places names the tolerance', () => {
    const file = lines('if (a) {', '  go();', '  stop();', '}', 'if (b) {', '    go();', '    stop();', '}', '');
    const failure = applyFails(file, clineBlock(lines('go();', 'stop();'), 'x();'));
    assert.match(failure.error, /occurs 2 times in the file \(matching ignoring indentation\), at lines 2 and 6,/);
  });

  test('a part of a line, even in two places, is no match: SEARCH matches whole lines only', () => {
    const failure = applyFails(lines('foo();', 'foobar();', ''), clineBlock('foo', 'baz'));
    assert.match(failure.error, /SEARCH block 1 of 1 does not match the file/);
  });

  test('a whole-line match wins over a line that merely contains it', () => {
    const file = lines('if (a) {', '  return x;', '}', 'function f() {', '  if (b) {', '    return x;', '  }', '}', '');
    const result = applyOk(file, clineBlock('  return x;', '  return y;'));
    assert.equal(result.content, lines('if (a) {', '  return y;', '}', 'function f() {', '  if (b) {', '    return x;', '  }', '}', ''));
  });
});

describe("Roo's :start_line: hint", () => {
  test('picks the candidate at the hinted line', () => {
    const result = applyOk(TWICE, rooBlock('let x = 1;', 'let x = 2;', 3));
    assert.equal(result.content, lines('let x = 1;', 'a();', 'let x = 2;', 'b();', ''));
  });

  test('picks the candidate nearest to a slightly wrong hint', () => {
    const result = applyOk(TWICE, rooBlock('let x = 1;', 'let x = 2;', 4));
    assert.equal(result.content, lines('let x = 1;', 'a();', 'let x = 2;', 'b();', ''));
  });

  test('a hint at the first line picks the first candidate', () => {
    const result = applyOk(TWICE, rooBlock('let x = 1;', 'let x = 0;', 1));
    assert.equal(result.content, lines('let x = 0;', 'a();', 'let x = 1;', 'b();', ''));
  });

  test('a hint also settles a tolerant match found in two places', () => {
    const file = lines('if (a) {', '  go();', '}', 'if (b) {', '  go();', '}', '');
    const result = applyOk(file, rooBlock('    go();', '    stop();', 5));
    assert.equal(result.content, lines('if (a) {', '  go();', '}', 'if (b) {', '  stop();', '}', ''));
    assert.deepEqual(result.strategies, ['indentation']);
  });

  test('a hint equally far from two candidates is still refused', () => {
    const failure = applyFails(TWICE, rooBlock('let x = 1;', 'let x = 2;', 2));
    assert.match(failure.error, /occurs 2 times in the file \(matching exactly\), at lines 1 and 3,/);
  });

  test('hints count lines of the file before the call, even after earlier blocks added lines', () => {
    const file = lines('top', 'x();', 'mid', 'x();', 'end', '');
    const diff = diffOf(rooBlock('top', lines('top', 'new1', 'new2'), 1), rooBlock('x();', 'y();', 4));
    assert.equal(applyOk(file, diff).content, lines('top', 'new1', 'new2', 'x();', 'mid', 'y();', 'end', ''));
  });
});

describe('block order', () => {
  test('each block is searched after the previous one, which resolves repeated text', () => {
    const file = lines('a', 'x', 'b', 'x', '');
    const diff = diffOf(clineBlock(lines('a', 'x'), lines('A', 'X1')), clineBlock('x', 'X2'));
    assert.equal(applyOk(file, diff).content, lines('A', 'X1', 'b', 'X2', ''));
  });

  test('blocks written out of order still apply', () => {
    const file = lines('one', 'two', 'three', 'four', '');
    const diff = diffOf(clineBlock('four', '4'), clineBlock('two', '2'));
    assert.equal(applyOk(file, diff).content, lines('one', '2', 'three', '4', ''));
  });

  test('an out-of-order block must be unique in the whole file', () => {
    const file = lines('x', 'y', 'x', 'z', '');
    const failure = applyFails(file, diffOf(clineBlock('z', 'Z'), clineBlock('x', 'X')));
    assert.equal(
      failure.error,
      lines(
        'SEARCH block 2 of 2 occurs 2 times in the file (matching exactly), at lines 1 and 3, so it is ambiguous and was not applied.',
        ADD_CONTEXT,
        NOTHING_CHANGED,
      ),
    );
    assert.equal(failure.blockIndex, 1);
  });

  test("ambiguity after the previous block's end is reported with the file's original line numbers", () => {
    const file = lines('a', 'b', 'x', 'x', '');
    const failure = applyFails(file, diffOf(clineBlock('a', lines('a', '1', '2')), clineBlock('x', 'X')));
    assert.match(failure.error, /^SEARCH block 2 of 2 occurs 2 times after the previous block's end \(matching exactly\), at lines 3 and 4,/);
    assert.equal(failure.blockIndex, 1);
  });
});
