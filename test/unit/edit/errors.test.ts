import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applySearchReplace } from '../../../src/core/edit/search-replace-engine.js';
import { applyFails, clineBlock, diffOf, lines } from './edit-test-helpers.js';

const NOTHING_CHANGED = 'Nothing was changed: the blocks of one replace_in_file call are applied all together or not at all.';
const RETRY = 'Use read_file to get the current content of the file, then retry with a SEARCH part copied exactly from it (whole lines, without line numbers).';
const LINE_TOLERANCES =
  'exactly, ignoring trailing whitespace, ignoring indentation, ignoring indentation and blank lines, ignoring whitespace and typographic quotes/dashes';
// A SEARCH of three or more lines is also looked for by its first and last lines; a shorter one is not.
const NOT_FOUND_HEAD = `does not match the file. Tried, always on whole lines: ${LINE_TOLERANCES}, ignoring runs of spaces inside lines and by its first and last lines.`;
const NOT_FOUND_HEAD_SHORT = `does not match the file. Tried, always on whole lines: ${LINE_TOLERANCES} and ignoring runs of spaces inside lines.`;

const GEOMETRY = lines(
  "import { a } from './a';",
  '',
  'export function area(r) {',
  '  const pi = 3.14159;',
  '  return pi * r * r;',
  '}',
  '',
  'export function perimeter(r) {',
  '  return 2 * 3.14159 * r;',
  '}',
  '',
);

describe('SEARCH text not found', () => {
  test('the message shows the SEARCH start and the closest region with line numbers and similarity', () => {
    const search = lines('export function area(radius) {', '  const PI = Math.PI;', '  return PI * radius ** 2;', '}');
    const failure = applyFails(GEOMETRY, clineBlock(search, 'x'));
    assert.equal(
      failure.error,
      lines(
        `SEARCH block 1 of 1 ${NOT_FOUND_HEAD}`,
        'The SEARCH text starts with:',
        '  export function area(radius) {',
        '    const PI = Math.PI;',
        '    return PI * radius ** 2;',
        '  }',
        'The closest region of the file is lines 3-6 (69% similar):',
        '3 | export function area(r) {',
        '4 |   const pi = 3.14159;',
        '5 |   return pi * r * r;',
        '6 | }',
        RETRY,
        NOTHING_CHANGED,
      ),
    );
    assert.equal(failure.blockIndex, 0);
  });

  test('a long SEARCH is shown by its first lines only', () => {
    const search = lines('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight');
    const failure = applyFails(GEOMETRY, clineBlock(search, 'x'));
    assert.match(failure.error, /\nThe SEARCH text starts with:\n {2}one\n {2}two\n {2}three\n {2}four\n {2}five\n {2}… \(3 more lines\)\n/);
  });

  test('a SEARCH that resembles nothing says so', () => {
    const failure = applyFails(GEOMETRY, clineBlock('zzz qqq', 'x'));
    assert.match(failure.error, /\nNo region of the file resembles it\.\n/);
    assert.ok(failure.error.endsWith(`${RETRY}\n${NOTHING_CHANGED}`));
  });

  test('a SEARCH on text an earlier block of the same call already changed', () => {
    const file = lines('a', 'b', 'c', '');
    const failure = applyFails(file, diffOf(clineBlock(lines('a', 'b'), lines('A', 'B')), clineBlock('b', 'C')));
    assert.equal(failure.blockIndex, 1);
    assert.match(failure.error, /^SEARCH block 2 of 2 does not match the file/);
    assert.match(failure.error, /\nThat text is in the file, but an earlier block of this call already changes it\. Merge the two blocks into one/);
  });
});

describe('atomic multi-block edits', () => {
  const file = lines('one', 'two', 'three', '');

  test('a failing second block fails the whole call and names that block', () => {
    const diff = diffOf(clineBlock('one', '1'), clineBlock('missing line', 'x'), clineBlock('three', '3'));
    const failure = applyFails(file, diff);
    assert.equal(failure.blockIndex, 1);
    assert.ok(failure.error.startsWith(`SEARCH block 2 of 3 ${NOT_FOUND_HEAD_SHORT}\nThe SEARCH text starts with:\n  missing line\n`));
  });

  test('a failing last block fails the call too', () => {
    const failure = applyFails(file, diffOf(clineBlock('one', '1'), clineBlock('two', '2'), clineBlock('four', '4')));
    assert.equal(failure.blockIndex, 2);
    assert.match(failure.error, /^SEARCH block 3 of 3 does not match the file/);
  });

  test('the same blocks without the bad one apply', () => {
    const result = applySearchReplace(file, diffOf(clineBlock('one', '1'), clineBlock('three', '3')));
    assert.deepEqual(result, { ok: true, content: lines('1', 'two', '3', ''), strategies: ['exact', 'exact'] });
  });
});

describe('empty SEARCH', () => {
  const EMPTY_SEARCH = lines(
    'SEARCH block 1 of 1 has an empty SEARCH part. An empty SEARCH is only allowed when the file is empty, and this file is not.',
    'To insert lines, put an existing nearby line in SEARCH and repeat it in REPLACE together with the new lines. To rewrite the whole file, use write_to_file.',
    NOTHING_CHANGED,
  );

  test('is refused on a file with content', () => {
    const failure = applyFails(lines('content', ''), clineBlock('', 'new'));
    assert.equal(failure.error, EMPTY_SEARCH);
    assert.equal(failure.blockIndex, 0);
  });

  test('a SEARCH of blank lines only counts as empty', () => {
    const failure = applyFails(lines('content', ''), clineBlock(lines('', '   '), 'new'));
    assert.equal(failure.error, EMPTY_SEARCH);
  });

  test('a second empty SEARCH after the first filled an empty file is refused', () => {
    const failure = applyFails('', diffOf(clineBlock('', 'first'), clineBlock('', 'second')));
    assert.equal(failure.blockIndex, 1);
    assert.match(failure.error, /^SEARCH block 2 of 2 has an empty SEARCH part\./);
  });
});
