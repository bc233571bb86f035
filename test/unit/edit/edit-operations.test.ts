import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyOk, clineBlock, diffOf, lines } from './edit-test-helpers.js';

const FILE = lines('import a;', 'import b;', '', 'run(a);', 'run(b);', '');

describe('deleting', () => {
  test('an empty REPLACE deletes the line without leaving a blank one', () => {
    assert.equal(applyOk(FILE, clineBlock('import b;', '')).content, lines('import a;', '', 'run(a);', 'run(b);', ''));
  });

  test('several lines at once', () => {
    assert.equal(applyOk(FILE, clineBlock(lines('import b;', '', 'run(a);'), '')).content, lines('import a;', 'run(b);', ''));
  });

  test('the first line of the file', () => {
    assert.equal(applyOk(FILE, clineBlock('import a;', '')).content, lines('import b;', '', 'run(a);', 'run(b);', ''));
  });

  test('a line whose indentation and trailing whitespace the SEARCH left out', () => {
    const file = lines('keep();', '    drop();   ', 'keep2();', '');
    const result = applyOk(file, clineBlock('drop();', ''));
    assert.equal(result.content, lines('keep();', 'keep2();', ''));
    assert.deepEqual(result.strategies, ['indentation']);
  });

  test('several lines whose first line lacks its indentation (copied from a selection)', () => {
    const file = lines('a();', '  if (x) {', '    y();', '  }', 'b();', '');
    const result = applyOk(file, clineBlock(lines('if (x) {', '    y();', '  }'), ''));
    assert.equal(result.content, lines('a();', 'b();', ''));
    assert.deepEqual(result.strategies, ['exact']);
  });

  test('a SEARCH that includes the line break after the lines', () => {
    assert.equal(applyOk(FILE, clineBlock(lines('run(a);', ''), '')).content, lines('import a;', 'import b;', '', 'run(b);', ''));
  });

  test('a REPLACE of one blank line leaves a blank line', () => {
    const diff = lines('------- SEARCH', 'import b;', '=======', '', '+++++++ REPLACE');
    assert.equal(applyOk(FILE, diff).content, lines('import a;', '', '', 'run(a);', 'run(b);', ''));
  });
});

describe('inserting', () => {
  test('after an anchor line, by repeating it in REPLACE', () => {
    const result = applyOk(FILE, clineBlock('import b;', lines('import b;', 'import c;')));
    assert.equal(result.content, lines('import a;', 'import b;', 'import c;', '', 'run(a);', 'run(b);', ''));
  });

  test('before an anchor line', () => {
    const result = applyOk(FILE, clineBlock('run(a);', lines('init();', 'run(a);')));
    assert.equal(result.content, lines('import a;', 'import b;', '', 'init();', 'run(a);', 'run(b);', ''));
  });

  test('after the last line of the file', () => {
    const result = applyOk(FILE, clineBlock('run(b);', lines('run(b);', 'run(c);')));
    assert.equal(result.content, lines('import a;', 'import b;', '', 'run(a);', 'run(b);', 'run(c);', ''));
  });

  test('after an anchor line written without its indentation', () => {
    const file = lines('if (ok) {', '    start();', '}', '');
    const result = applyOk(file, clineBlock('start();', lines('start();', 'log();')));
    assert.equal(result.content, lines('if (ok) {', '    start();', '    log();', '}', ''));
    assert.deepEqual(result.strategies, ['indentation']);
  });

  test("a multi-line SEARCH copied from mid-line keeps the first line's indentation", () => {
    const file = lines('  if (x) {', '    y();', '  }', '');
    const result = applyOk(file, clineBlock(lines('if (x) {', '    y();'), lines('if (x && z) {', '    y();')));
    assert.equal(result.content, lines('  if (x && z) {', '    y();', '  }', ''));
    assert.deepEqual(result.strategies, ['exact']);
  });

  test("inserted lines follow the file's indentation when the anchor matched loosely", () => {
    const file = lines('function f() {', '\tconst a = 1;', '\treturn a;', '}', '');
    const result = applyOk(file, clineBlock('  const a = 1;', lines('  const a = 1;', '  const b = 2;')));
    assert.equal(result.content, lines('function f() {', '\tconst a = 1;', '\tconst b = 2;', '\treturn a;', '}', ''));
    assert.deepEqual(result.strategies, ['indentation']);
  });
});

describe('several blocks', () => {
  test('edits, deletions and insertions in one call', () => {
    const diff = diffOf(clineBlock('import a;', lines('import a;', 'import z;')), clineBlock('run(a);', ''), clineBlock('run(b);', 'run(b, z);'));
    const result = applyOk(FILE, diff);
    assert.equal(result.content, lines('import a;', 'import z;', 'import b;', '', 'run(b, z);', ''));
    assert.deepEqual(result.strategies, ['exact', 'exact', 'exact']);
  });

  test('a later block may match text inserted by an earlier one when it is unique', () => {
    const diff = diffOf(clineBlock('run(b);', lines('run(b);', 'run(c);')), clineBlock('run(c);', 'run(d);'));
    assert.equal(applyOk(FILE, diff).content, lines('import a;', 'import b;', '', 'run(a);', 'run(b);', 'run(d);', ''));
  });
});
