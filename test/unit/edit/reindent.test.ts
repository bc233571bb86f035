import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createReindenter, detectIndentStyle, indentWidth, isIndentationConsistent } from '../../../src/core/edit/reindent.js';
import { applyOk, clineBlock, lines } from './edit-test-helpers.js';

// A 2-space TypeScript file, the target of most cases below.
const TWO_SPACE = lines('class Runner {', '  run() {', '    if (ok) {', '      go();', '    }', '  }', '}', '');

describe('re-indenting REPLACE after an indentation-insensitive match', () => {
  test('SEARCH written with 4-space indentation lands in a 2-space file', () => {
    const search = lines('        if (ok) {', '            go();', '        }');
    const replace = lines('        if (ok) {', '            go();', '            if (again) {', '                go();', '            }', '        }');
    const result = applyOk(TWO_SPACE, clineBlock(search, replace));
    assert.equal(
      result.content,
      lines('class Runner {', '  run() {', '    if (ok) {', '      go();', '      if (again) {', '        go();', '      }', '    }', '  }', '}', ''),
    );
    assert.deepEqual(result.strategies, ['indentation']);
  });

  test('SEARCH indented less than the file: a uniform shift', () => {
    const search = lines('if (ok) {', '  go();', '}');
    const replace = lines('if (ok) {', '  go();', '  stop();', '}', 'log();');
    const result = applyOk(TWO_SPACE, clineBlock(search, replace));
    assert.equal(result.content, lines('class Runner {', '  run() {', '    if (ok) {', '      go();', '      stop();', '    }', '    log();', '  }', '}', ''));
  });

  test('SEARCH indented 4 columns more than the file', () => {
    const search = lines('        if (ok) {', '          go();', '        }');
    const replace = lines('        if (ok) {', '          go();', '        } else {', '          wait();', '        }');
    const result = applyOk(TWO_SPACE, clineBlock(search, replace));
    assert.equal(
      result.content,
      lines('class Runner {', '  run() {', '    if (ok) {', '      go();', '    } else {', '      wait();', '    }', '  }', '}', ''),
    );
  });

  test('SEARCH with spaces lands in a tab-indented file', () => {
    const file = lines('func main() {', '\tif ok {', '\t\tgo()', '\t}', '}', '');
    const search = lines('    if ok {', '        go()', '    }');
    const replace = lines('    if ok {', '        go()', '        if again {', '            go()', '        }', '    }');
    const result = applyOk(file, clineBlock(search, replace));
    assert.equal(result.content, lines('func main() {', '\tif ok {', '\t\tgo()', '\t\tif again {', '\t\t\tgo()', '\t\t}', '\t}', '}', ''));
  });

  test('SEARCH with 2-space indentation lands in a tab-indented file', () => {
    const file = lines('func main() {', '\tif ok {', '\t\tgo()', '\t}', '}', '');
    const search = lines('  if ok {', '    go()', '  }');
    const replace = lines('  if ok {', '    go()', '    for {', '      spin()', '    }', '  }');
    const result = applyOk(file, clineBlock(search, replace));
    assert.equal(result.content, lines('func main() {', '\tif ok {', '\t\tgo()', '\t\tfor {', '\t\t\tspin()', '\t\t}', '\t}', '}', ''));
  });

  test('SEARCH with tabs lands in a 2-space file', () => {
    const search = lines('\t\tif (ok) {', '\t\t\tgo();', '\t\t}');
    const replace = lines('\t\tif (ok) {', '\t\t\ttry {', '\t\t\t\tgo();', '\t\t\t} catch {}', '\t\t}');
    const result = applyOk(TWO_SPACE, clineBlock(search, replace));
    assert.equal(
      result.content,
      lines('class Runner {', '  run() {', '    if (ok) {', '      try {', '        go();', '      } catch {}', '    }', '  }', '}', ''),
    );
  });

  test('a one-line SEARCH learns the indentation step from REPLACE and the file', () => {
    const file = lines('function f(x) {', '  if (x) {', '    return x;', '  }', '  return 0;', '}', '');
    const search = '        return 0;';
    const replace = lines('        if (x > 10) {', '            return 10;', '        }', '        return 0;');
    const result = applyOk(file, clineBlock(search, replace));
    assert.equal(
      result.content,
      lines('function f(x) {', '  if (x) {', '    return x;', '  }', '  if (x > 10) {', '    return 10;', '  }', '  return 0;', '}', ''),
    );
  });

  test('blank REPLACE lines carry no indentation', () => {
    const search = lines('if (ok) {', '  go();', '}');
    const replace = lines('if (ok) {', '  go();', '    ', '  rest();', '}');
    const result = applyOk(TWO_SPACE, clineBlock(search, replace));
    assert.equal(result.content, lines('class Runner {', '  run() {', '    if (ok) {', '      go();', '', '      rest();', '    }', '  }', '}', ''));
  });

  test('re-indenting also follows a match that ignored a missing blank line', () => {
    const file = lines('def f():', '    a = 1', '', '    return a', '');
    const search = lines('a = 1', 'return a');
    const replace = lines('a = 1', 'if a:', '    a += 1', 'return a');
    const result = applyOk(file, clineBlock(search, replace));
    assert.equal(result.content, lines('def f():', '    a = 1', '    if a:', '        a += 1', '    return a', ''));
    assert.deepEqual(result.strategies, ['blank-lines']);
  });

  test('Python: nesting is preserved when the whole block moves one level', () => {
    const file = lines('class A:', '    def f(self):', '        if x:', '            y()', '        return 1', '');
    const search = lines('if x:', '    y()', 'return 1');
    const replace = lines('if x:', '    y()', '    z()', 'return 2');
    const result = applyOk(file, clineBlock(search, replace));
    assert.equal(result.content, lines('class A:', '    def f(self):', '        if x:', '            y()', '            z()', '        return 2', ''));
  });
});

describe('reindent building blocks', () => {
  test('indentWidth counts tabs to the next 4-column stop', () => {
    assert.equal(indentWidth(''), 0);
    assert.equal(indentWidth('   '), 3);
    assert.equal(indentWidth('\t'), 4);
    assert.equal(indentWidth('  \t'), 4);
    assert.equal(indentWidth('\t  '), 6);
  });

  test('consistency demands the same nesting order', () => {
    assert.equal(
      isIndentationConsistent([
        { search: '', file: '  ' },
        { search: '    ', file: '    ' },
      ]),
      true,
    );
    assert.equal(
      isIndentationConsistent([
        { search: '', file: '  ' },
        { search: '    ', file: '' },
      ]),
      false,
    );
    assert.equal(
      isIndentationConsistent([
        { search: '  ', file: '\t' },
        { search: '  ', file: '' },
      ]),
      false,
    );
  });

  test('no reindenter when the indentation already agrees', () => {
    assert.equal(createReindenter([{ search: '  ', file: '  ' }], [], []), undefined);
  });

  test('a reindenter maps known indents exactly and extrapolates others', () => {
    const reindent = createReindenter(
      [
        { search: '    ', file: '\t' },
        { search: '        ', file: '\t\t' },
      ],
      [],
      [],
    );
    assert.ok(reindent);
    assert.equal(reindent('    a'), '\ta');
    assert.equal(reindent('            b'), '\t\t\tb');
    assert.equal(reindent('c'), 'c');
    assert.equal(reindent('      d'), '\t  d');
  });

  test('detectIndentStyle finds tabs, 2 and 4 spaces, and skips block-comment stars', () => {
    assert.deepEqual(detectIndentStyle(['a {', '\tb {', '\t\tc', '\t}', '}']), { unit: 4, tabs: true });
    assert.deepEqual(detectIndentStyle(['a {', '  b {', '    c', '  }', '}']), { unit: 2, tabs: false });
    assert.deepEqual(detectIndentStyle(['/**', ' * doc', ' */', 'a {', '    b', '}']), { unit: 4, tabs: false });
    assert.equal(detectIndentStyle(['a', 'b']), undefined);
  });
});
