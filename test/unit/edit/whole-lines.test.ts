// A SEARCH is matched on whole lines only: an edit never joins, splits or splices file lines.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyFails, applyOk, clineBlock, lines } from './edit-test-helpers.js';

describe('matching is on whole lines only', () => {
  test('a SEARCH found only inside a line is refused, and the file is not touched', () => {
    const failure = applyFails(lines('const limit = 10;', ''), clineBlock('limit = 10', 'limit = 20'));
    assert.match(failure.error, /SEARCH block 1 of 1 does not match/);
    assert.match(failure.error, /whole lines/);
  });

  test('a SEARCH whose first line matches only the end of a file line is refused', () => {
    const file = lines('let a = 0; let b = 1;', 'let c = 2;', 'done();', '');
    applyFails(file, clineBlock(lines('let b = 1;', 'let c = 2;'), lines('let b = 5;', 'let c = 6;')));
  });

  test('a SEARCH whose last line matches only the start of a file line is refused', () => {
    const file = lines('begin();', 'step(1); step(2);', 'end();', '');
    applyFails(file, clineBlock(lines('begin();', 'step(1);'), lines('begin();', 'step(0);')));
  });

  test('a SEARCH ending with a blank line needs a blank line there; it does not eat the next line', () => {
    const file = lines('a();', 'b();', 'c();', '');
    const result = applyOk(file, clineBlock(lines('a();', ''), lines('A();', '')));
    // The blank line is not in the file, so it is ignored at the edge; b() stays on its own line.
    assert.equal(result.content, lines('A();', 'b();', 'c();', ''));
  });

  test('a SEARCH starting with a blank line does not join the line before it', () => {
    const file = lines('x = 1', 'y = 2', 'z = 3', '');
    const result = applyOk(file, clineBlock(lines('', 'y = 2'), lines('', 'y = 20')));
    assert.equal(result.content, lines('x = 1', 'y = 20', 'z = 3', ''));
  });

  test('a leading blank SEARCH line that REPLACE drops does not join the line before', () => {
    const file = lines('x();', 'foo();', 'y();', '');
    const result = applyOk(file, clineBlock(lines('', 'foo();'), 'bar();'));
    assert.equal(result.content, lines('x();', 'bar();', 'y();', ''));
  });

  test('a trailing blank SEARCH line that REPLACE drops does not join the line after', () => {
    const file = lines('x();', 'foo();', 'y();', '');
    const result = applyOk(file, clineBlock(lines('foo();', ''), 'bar();'));
    assert.equal(result.content, lines('x();', 'bar();', 'y();', ''));
  });

  test('blank edge lines that are in the file are matched and replaced as lines', () => {
    const file = lines('x = 1', '', 'y = 2', '', 'z = 3', '');
    const result = applyOk(file, clineBlock(lines('', 'y = 2', ''), lines('', 'y = 20', '')));
    assert.equal(result.content, lines('x = 1', '', 'y = 20', '', 'z = 3', ''));
    assert.deepEqual(result.strategies, ['exact']);
  });

  test('a deletion whose SEARCH ends with a blank line removes that blank line', () => {
    const file = lines('import a;', '', 'function old() {}', '', 'function keep() {}', '');
    const result = applyOk(file, clineBlock(lines('function old() {}', ''), ''));
    assert.equal(result.content, lines('import a;', '', 'function keep() {}', ''));
  });

  test('a deletion whose SEARCH starts with a blank line removes that blank line', () => {
    const file = lines('import a;', '', 'function old() {}', 'function keep() {}', '');
    const result = applyOk(file, clineBlock(lines('', 'function old() {}'), ''));
    assert.equal(result.content, lines('import a;', 'function keep() {}', ''));
  });

  test('a deletion at the end of a file without a final newline', () => {
    const result = applyOk(lines('a', 'b', ''), clineBlock(lines('b', ''), ''));
    assert.equal(result.content, lines('a', ''));
  });
});
