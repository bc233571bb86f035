import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIFF_FORMAT_HELP, parseDiffBlocks } from '../../../src/core/edit/diff-blocks.js';
import { applyFails, applyOk, clineBlock, diffOf, lines, rooBlock } from './edit-test-helpers.js';

const FILE = lines('alpha', 'beta', 'gamma', '');

describe("Cline's dialect", () => {
  test('a standard block replaces the matched line', () => {
    const result = applyOk(FILE, clineBlock('beta', 'BETA'));
    assert.equal(result.content, lines('alpha', 'BETA', 'gamma', ''));
    assert.deepEqual(result.strategies, ['exact']);
  });

  for (let count = 3; count <= 10; count++) {
    test(`markers made of ${count} dashes, equals signs and pluses`, () => {
      const result = applyOk(FILE, clineBlock('gamma', 'GAMMA', count));
      assert.equal(result.content, lines('alpha', 'beta', 'GAMMA', ''));
    });
  }

  test('a stray ">" after the SEARCH and REPLACE markers', () => {
    const diff = lines('------- SEARCH>', 'alpha', '=======', 'ALPHA', '+++++++ REPLACE>');
    assert.equal(applyOk(FILE, diff).content, lines('ALPHA', 'beta', 'gamma', ''));
  });

  test('marker lines with trailing spaces and mismatched lengths', () => {
    const diff = lines('---- SEARCH  ', 'beta', '==========', 'B', '+++ REPLACE ');
    assert.equal(applyOk(FILE, diff).content, lines('alpha', 'B', 'gamma', ''));
  });

  test('prose and code fences around the blocks are ignored', () => {
    const diff = lines('Here is the change:', '```', clineBlock('beta', 'b2'), '```', 'Done.');
    assert.equal(applyOk(FILE, diff).content, lines('alpha', 'b2', 'gamma', ''));
  });

  test('several blocks in one diff', () => {
    const diff = diffOf(clineBlock('alpha', 'A'), clineBlock('gamma', 'G'));
    const result = applyOk(FILE, diff);
    assert.equal(result.content, lines('A', 'beta', 'G', ''));
    assert.deepEqual(result.strategies, ['exact', 'exact']);
  });
});

describe("Roo Code's dialect", () => {
  test('with a :start_line: hint and a ------- separator', () => {
    const diff = rooBlock('beta', 'BETA', 2);
    assert.equal(applyOk(FILE, diff).content, lines('alpha', 'BETA', 'gamma', ''));
  });

  test('without hint or separator', () => {
    assert.equal(applyOk(FILE, rooBlock('beta', 'BETA')).content, lines('alpha', 'BETA', 'gamma', ''));
  });

  test('with only the ------- separator', () => {
    const diff = lines('<<<<<<< SEARCH', '-------', 'gamma', '=======', 'G', '>>>>>>> REPLACE');
    assert.equal(applyOk(FILE, diff).content, lines('alpha', 'beta', 'G', ''));
  });

  test('an :end_line: hint is accepted and ignored', () => {
    const diff = lines('<<<<<<< SEARCH', ':start_line:1', ':end_line:1', '-------', 'alpha', '=======', 'A', '>>>>>>> REPLACE');
    assert.equal(applyOk(FILE, diff).content, lines('A', 'beta', 'gamma', ''));
  });

  test('content lines that look like markers can be escaped with a backslash', () => {
    const file = lines('Title', '=======', 'text', '');
    const diff = lines('<<<<<<< SEARCH', 'Title', '\\=======', '=======', 'New title', '\\=======', '>>>>>>> REPLACE');
    assert.equal(applyOk(file, diff).content, lines('New title', '=======', 'text', ''));
  });
});

describe('mixed dialects and line endings of the diff', () => {
  test('a Cline block and a Roo block in the same diff', () => {
    const diff = diffOf(clineBlock('alpha', 'A'), rooBlock('gamma', 'G', 3));
    assert.equal(applyOk(FILE, diff).content, lines('A', 'beta', 'G', ''));
  });

  test('Roo opening marker closed with a Cline REPLACE marker', () => {
    const diff = lines('<<<<<<< SEARCH', 'beta', '=======', 'B', '+++++++ REPLACE');
    assert.equal(applyOk(FILE, diff).content, lines('alpha', 'B', 'gamma', ''));
  });

  test('a diff written with CRLF line endings applies to an LF file', () => {
    const diff = clineBlock(lines('alpha', 'beta'), lines('one', 'two')).replace(/\n/g, '\r\n');
    assert.equal(applyOk(FILE, diff).content, lines('one', 'two', 'gamma', ''));
  });
});

describe('parseDiffBlocks', () => {
  test('returns SEARCH and REPLACE lines and the start-line hint', () => {
    const parsed = parseDiffBlocks(diffOf(rooBlock(lines('a', 'b'), 'c', 12), clineBlock('d', '')));
    assert.deepEqual(parsed, {
      ok: true,
      blocks: [
        { search: ['a', 'b'], replace: ['c'], startLine: 12 },
        { search: ['d'], replace: [] },
      ],
    });
  });

  test('a short dash line without a hint is content (YAML front matter), not a separator', () => {
    const parsed = parseDiffBlocks(lines('<<<<<<< SEARCH', '---', 'title: x', '=======', '---', 'title: y', '>>>>>>> REPLACE'));
    assert.deepEqual(parsed, { ok: true, blocks: [{ search: ['---', 'title: x'], replace: ['---', 'title: y'] }] });
  });

  test('a ======= line inside REPLACE is kept as content', () => {
    const parsed = parseDiffBlocks(lines('------- SEARCH', 'x', '=======', 'Heading', '=======', '+++++++ REPLACE'));
    assert.deepEqual(parsed, { ok: true, blocks: [{ search: ['x'], replace: ['Heading', '======='] }] });
  });

  test('a blank line between ======= and REPLACE is a blank replacement line', () => {
    const parsed = parseDiffBlocks(lines('------- SEARCH', 'x', '=======', '', '+++++++ REPLACE'));
    assert.deepEqual(parsed, { ok: true, blocks: [{ search: ['x'], replace: [''] }] });
  });
});

describe('malformed diffs', () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly diff: string; readonly reason: string }> = [
    {
      name: 'no block at all',
      diff: 'please change beta to BETA',
      reason: 'The diff is malformed: it contains no SEARCH/REPLACE block.',
    },
    {
      name: 'missing =======',
      diff: lines('------- SEARCH', 'beta', '+++++++ REPLACE'),
      reason: 'The diff is malformed: line 3 closes the block opened at line 1 with REPLACE, but the ======= line between SEARCH and REPLACE is missing.',
    },
    {
      name: 'SEARCH inside SEARCH',
      diff: lines('------- SEARCH', 'beta', '------- SEARCH', 'gamma', '=======', 'x', '+++++++ REPLACE'),
      reason: 'The diff is malformed: line 3 opens a new SEARCH while the block opened at line 1 has no ======= line yet.',
    },
    {
      name: 'a new SEARCH before the previous REPLACE marker',
      diff: lines('------- SEARCH', 'beta', '=======', 'B', '------- SEARCH', 'gamma', '=======', 'G', '+++++++ REPLACE'),
      reason: 'The diff is malformed: line 5 opens a new SEARCH while the block opened at line 1 is not closed with +++++++ REPLACE.',
    },
    {
      name: 'a divider before any SEARCH',
      diff: lines('=======', 'beta', '+++++++ REPLACE'),
      reason: 'The diff is malformed: line 1 ("=======") comes before any SEARCH marker.',
    },
    {
      name: 'SEARCH without anything after it',
      diff: lines('<<<<<<< SEARCH', 'beta'),
      reason: 'The diff is malformed: the block opened at line 1 ends without a ======= line and a REPLACE part.',
    },
  ];
  for (const { name, diff, reason } of cases) {
    test(name, () => {
      const failure = applyFails(FILE, diff);
      assert.equal(failure.error, `${reason}\n${DIFF_FORMAT_HELP}`);
      assert.equal(failure.blockIndex, undefined);
    });
  }

  test('the help shows the exact expected format', () => {
    assert.match(
      DIFF_FORMAT_HELP,
      /\n------- SEARCH\n\[exact lines copied from the current file\]\n=======\n\[the new lines that replace them\]\n\+\+\+\+\+\+\+ REPLACE\n/,
    );
  });
});
