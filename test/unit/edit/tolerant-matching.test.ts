import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyFails, applyOk, clineBlock, diffOf, lines } from './edit-test-helpers.js';

describe('exact', () => {
  test('whole lines', () => {
    const result = applyOk(lines('a', 'b', 'c', ''), clineBlock(lines('b', 'c'), lines('B', 'C')));
    assert.equal(result.content, lines('a', 'B', 'C', ''));
    assert.deepEqual(result.strategies, ['exact']);
  });

  test('part of a line is no match (whole lines only)', () => {
    applyFails(lines('const limit = 10;', ''), clineBlock('limit = 10', 'limit = 20'));
  });
});

describe('trailing whitespace', () => {
  const file = lines('function f() {', '  const a = 1;   ', '  return a;\t', '}', '');

  test('the file has trailing whitespace the SEARCH lacks; unchanged lines keep theirs', () => {
    const result = applyOk(file, clineBlock(lines('  const a = 1;', '  return a;'), lines('  const a = 2;', '  return a;')));
    assert.equal(result.content, lines('function f() {', '  const a = 2;', '  return a;\t', '}', ''));
    assert.deepEqual(result.strategies, ['trailing-whitespace']);
  });

  test('the SEARCH has trailing whitespace the file lacks', () => {
    const plain = lines('x = 1', 'y = 2', '');
    const result = applyOk(plain, clineBlock(lines('x = 1  ', 'y = 2 '), lines('x = 3', 'y = 4')));
    assert.equal(result.content, lines('x = 3', 'y = 4', ''));
    assert.deepEqual(result.strategies, ['trailing-whitespace']);
  });
});

describe('indentation', () => {
  test('a SEARCH written without the indentation of a nested block', () => {
    const file = lines('class A {', '  run() {', '    step();', '    done();', '  }', '}', '');
    const result = applyOk(file, clineBlock(lines('step();', 'done();'), lines('step();', 'log();', 'done();')));
    assert.equal(result.content, lines('class A {', '  run() {', '    step();', '    log();', '    done();', '  }', '}', ''));
    assert.deepEqual(result.strategies, ['indentation']);
  });

  test('tabs in the file, spaces in the SEARCH', () => {
    const file = lines('func main() {', '\tif ok {', '\t\tgo()', '\t}', '}', '');
    const result = applyOk(file, clineBlock(lines('    if ok {', '        go()', '    }'), lines('    if ok {', '        run()', '    }')));
    assert.equal(result.content, lines('func main() {', '\tif ok {', '\t\trun()', '\t}', '}', ''));
    assert.deepEqual(result.strategies, ['indentation']);
  });

  test('indentation whose nesting differs from the SEARCH is not matched (Python)', () => {
    const file = lines('if ready:', '    start()', 'finish()', '');
    const failure = applyFails(file, clineBlock(lines('if ready:', '    start()', '    finish()'), 'pass'));
    assert.match(failure.error, /does not match the file/);
    assert.match(failure.error, /indentation does not follow the SEARCH's nesting/);
  });
});

describe('blank lines', () => {
  test('the file has a blank line the SEARCH lacks; it survives the edit', () => {
    const file = lines('a();', '', 'b();', 'c();', '');
    const result = applyOk(file, clineBlock(lines('a();', 'b();'), lines('a();', 'b2();')));
    assert.equal(result.content, lines('a();', '', 'b2();', 'c();', ''));
    assert.deepEqual(result.strategies, ['blank-lines']);
  });

  test('the SEARCH has a blank line the file lacks; none is added', () => {
    const file = lines('a();', 'b();', 'c();', '');
    const result = applyOk(file, clineBlock(lines('a();', '', 'b();'), lines('a();', '', 'b2();')));
    assert.equal(result.content, lines('a();', 'b2();', 'c();', ''));
    assert.deepEqual(result.strategies, ['blank-lines']);
  });

  test('blank lines the model changes on purpose are written as the REPLACE has them', () => {
    const file = lines('a();', '', 'b();', 'c();', '');
    const result = applyOk(file, clineBlock(lines('b();', '', 'c();'), lines('b();', '', '', 'c();')));
    assert.equal(result.content, lines('a();', '', 'b();', '', '', 'c();', ''));
    assert.deepEqual(result.strategies, ['blank-lines']);
  });

  test('blank lines around the SEARCH that the file lacks are dropped from REPLACE too', () => {
    const file = lines('two', 'three', '');
    const result = applyOk(file, clineBlock(lines('', 'two', ''), lines('', 'TWO', '')));
    assert.equal(result.content, lines('TWO', 'three', ''));
    assert.deepEqual(result.strategies, ['blank-lines']);
  });
});

describe('typographic punctuation', () => {
  test("smart quotes in SEARCH and REPLACE become the file's ASCII quotes", () => {
    const file = lines('const msg = "Don\'t panic";', 'print(msg);', '');
    const result = applyOk(file, clineBlock('const msg = \u201CDon\u2019t panic\u201D;', 'const msg = \u201CDon\u2019t worry\u201D;'));
    assert.equal(result.content, lines('const msg = "Don\'t worry";', 'print(msg);', ''));
    assert.deepEqual(result.strategies, ['punctuation']);
  });

  test("the file has smart quotes, the SEARCH ASCII ones; kept lines keep the file's", () => {
    const file = lines('title = \u201CHello\u201D', 'count = 1', '');
    const result = applyOk(file, clineBlock(lines('title = "Hello"', 'count = 1'), lines('title = "Hello"', 'count = 2')));
    assert.equal(result.content, lines('title = \u201CHello\u201D', 'count = 2', ''));
    assert.deepEqual(result.strategies, ['punctuation']);
  });

  test('non-breaking spaces and en/em dashes', () => {
    const file = lines('# Range: 1-10 -- inclusive', 'x = 1', '');
    const result = applyOk(
      file,
      clineBlock(lines('# Range:\u00A01\u201310 \u2014\u2014 inclusive', 'x = 1'), lines('# Range:\u00A01\u201310 \u2014\u2014 inclusive', 'x = 2')),
    );
    assert.equal(result.content, lines('# Range: 1-10 -- inclusive', 'x = 2', ''));
    assert.deepEqual(result.strategies, ['punctuation']);
  });
});

describe('line-number prefixes copied from read_file', () => {
  const file = lines('alpha', 'beta', 'gamma', '');

  test('"N | " prefixes on SEARCH and REPLACE', () => {
    const result = applyOk(file, clineBlock(lines('2 | beta', '3 | gamma'), lines('2 | BETA', '3 | gamma')));
    assert.equal(result.content, lines('alpha', 'BETA', 'gamma', ''));
    assert.deepEqual(result.strategies, ['line-numbers']);
  });

  test('"N: " prefixes on SEARCH only', () => {
    const result = applyOk(file, clineBlock(lines('1: alpha', '2: beta'), lines('alpha', 'B')));
    assert.equal(result.content, lines('alpha', 'B', 'gamma', ''));
    assert.deepEqual(result.strategies, ['line-numbers']);
  });

  test('cat -n style right-aligned numbers and a tab', () => {
    const result = applyOk(file, clineBlock(lines('     2\tbeta', '     3\tgamma'), 'G'));
    assert.equal(result.content, lines('alpha', 'G', ''));
    assert.deepEqual(result.strategies, ['line-numbers']);
  });

  test('line numbers combined with indentation drift', () => {
    const nested = lines('if (x) {', '  call();', '    more();', '}', '');
    const result = applyOk(nested, clineBlock(lines('2 | call();', '3 |   more();'), lines('2 | call();', '3 |   other();')));
    assert.equal(result.content, lines('if (x) {', '  call();', '    other();', '}', ''));
    assert.deepEqual(result.strategies, ['line-numbers+indentation']);
  });

  test('a file whose lines really start with numbers matches exactly first', () => {
    const numbered = lines('1: one', '2: two', '');
    const result = applyOk(numbered, clineBlock('2: two', '2: deux'));
    assert.equal(result.content, lines('1: one', '2: deux', ''));
    assert.deepEqual(result.strategies, ['exact']);
  });

  test('prefixes are only stripped when every non-blank SEARCH line has one', () => {
    const failure = applyFails(file, clineBlock(lines('2 | beta', 'gamma'), 'x'));
    assert.match(failure.error, /SEARCH block 1 of 1 does not match the file/);
  });
});

describe('block anchor', () => {
  const file = lines('function total(items) {', '  let sum = 0;', '  for (const item of items) {', '    sum += item.price;', '  }', '  return sum;', '}', '');

  test('first and last lines match, one interior line was misremembered', () => {
    const search = lines('function total(items) {', '  let sum = 0;', '  for (const item of items) {', '    sum += item.cost;', '  }', '  return sum;', '}');
    const replace = lines('function total(items) {', '  return items.reduce((sum, item) => sum + item.price, 0);', '}');
    const result = applyOk(file, clineBlock(search, replace));
    assert.equal(result.content, lines('function total(items) {', '  return items.reduce((sum, item) => sum + item.price, 0);', '}', ''));
    assert.deepEqual(result.strategies, ['block-anchor']);
  });

  test('the model left out one interior line', () => {
    const search = lines('function total(items) {', '  let sum = 0;', '  for (const item of items) {', '  }', '  return sum;', '}');
    const result = applyOk(file, clineBlock(search, lines('function total(items) {', '  return 0;', '}')));
    assert.equal(result.content, lines('function total(items) {', '  return 0;', '}', ''));
    assert.deepEqual(result.strategies, ['block-anchor']);
  });

  test('an interior that is too different is not matched', () => {
    const search = lines('function total(items) {', '  console.log("unrelated");', '  throw new Error("nope");', '}');
    const failure = applyFails(file, clineBlock(search, 'x'));
    assert.match(failure.error, /SEARCH block 1 of 1 does not match the file/);
  });
});

test('each block reports the strategy that matched it', () => {
  const file = lines('one  ', 'two', '    three', '');
  const diff = diffOf(clineBlock('one', '1'), clineBlock('two', '2'), clineBlock('three', '3'));
  const result = applyOk(file, diff);
  assert.equal(result.content, lines('1', '2', '    3', ''));
  assert.deepEqual(result.strategies, ['trailing-whitespace', 'exact', 'indentation']);
  const tolerant = applyOk(lines('a  ', 'b', '  c', '  d', ''), diffOf(clineBlock(lines('a', 'b'), 'AB'), clineBlock(lines('c', 'd'), 'CD')));
  assert.equal(tolerant.content, lines('AB', '  CD', ''));
  assert.deepEqual(tolerant.strategies, ['trailing-whitespace', 'indentation']);
});
