// Mistakes that still say exactly where the edit goes are tolerated; each tolerant match still
// refuses when more than one place fits, and a miss says what was tried.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { STRATEGY_DESCRIPTIONS } from '../../../src/core/edit/match-strategies.js';
import { applyFails, applyOk, clineBlock, diffOf, lines, rooBlock } from './edit-test-helpers.js';

const FILE = lines('alpha', 'beta', 'gamma', '');

describe('a last block without its closing REPLACE marker', () => {
  test('Cline dialect: the diff ends after the REPLACE lines', () => {
    const diff = lines('------- SEARCH', 'beta', '=======', 'BETA');
    assert.equal(applyOk(FILE, diff).content, lines('alpha', 'BETA', 'gamma', ''));
  });

  test('Roo dialect, with a final newline, after a complete block', () => {
    const diff = diffOf(rooBlock('alpha', 'ALPHA'), lines('<<<<<<< SEARCH', 'gamma', '=======', 'GAMMA', ''));
    assert.equal(applyOk(FILE, diff).content, lines('ALPHA', 'beta', 'GAMMA', ''));
  });

  test('a deletion whose REPLACE part is empty', () => {
    assert.equal(applyOk(FILE, lines('------- SEARCH', 'beta', '=======')).content, lines('alpha', 'gamma', ''));
  });

  test('an earlier block without its REPLACE marker is still refused', () => {
    const diff = lines('------- SEARCH', 'alpha', '=======', 'A', '------- SEARCH', 'beta', '=======', 'B', '+++++++ REPLACE');
    assert.match(applyFails(FILE, diff).error, /is not closed with \+\+\+\+\+\+\+ REPLACE/);
  });
});

describe('runs of spaces inside a line', () => {
  const aligned = lines('const config = {', '  name:    "smith",', '  retries: 3,', '  timeout: 30,', '};', '');

  test('the file aligns columns, the SEARCH collapsed the spaces', () => {
    const result = applyOk(aligned, clineBlock(lines('  name: "smith",', '  retries: 3,'), lines('  name: "smith",', '  retries: 5,')));
    assert.equal(result.content, lines('const config = {', '  name:    "smith",', '  retries: 5,', '  timeout: 30,', '};', ''));
    assert.deepEqual(result.strategies, ['inner-whitespace']);
  });

  test('the SEARCH has more spaces than the file', () => {
    const file = lines('x = 1', 'y = 2', '');
    const result = applyOk(file, clineBlock('x  =  1', 'x = 10'));
    assert.equal(result.content, lines('x = 10', 'y = 2', ''));
  });

  test('tabs against spaces inside a line', () => {
    const file = lines('#define LIMIT\t\t10', '#define DEPTH\t\t4', '');
    const result = applyOk(file, clineBlock('#define LIMIT 10', '#define LIMIT 20'));
    assert.equal(result.content, lines('#define LIMIT 20', '#define DEPTH\t\t4', ''));
  });

  test('two places that fit once spaces are collapsed are refused', () => {
    const file = lines('a  = 1', 'b = 2', 'a =  1', '');
    const failure = applyFails(file, clineBlock('a = 1', 'a = 9'));
    assert.match(failure.error, /occurs 2 times in the file \(matching ignoring runs of spaces inside lines\), at lines 1 and 3/);
  });

  test('spaces removed altogether are not tolerated', () => {
    applyFails(lines('x = 1', ''), clineBlock('x=1', 'x=2'));
  });
});

describe('mixed tabs and spaces with the same nesting', () => {
  test('a file indented 4 columns a level with 8-column tabs (level 2 is one tab), SEARCH in spaces', () => {
    const file = lines('int main() {', '    if (x) {', '\ty();', '\tif (z) {', '\t    w();', '\t}', '    }', '}', '');
    const search = lines('    if (x) {', '        y();', '        if (z) {', '            w();');
    const replace = lines('    if (x) {', '        y();', '        v();', '        if (z) {', '            w();');
    const result = applyOk(file, clineBlock(search, replace));
    assert.equal(result.content, lines('int main() {', '    if (x) {', '\ty();', '\tv();', '\tif (z) {', '\t    w();', '\t}', '    }', '}', ''));
    assert.deepEqual(result.strategies, ['indentation']);
  });

  test('a SEARCH that mixes tabs and spaces for one level, against a space-indented file', () => {
    const file = lines('def f():', '    if a:', '        b()', '    return 1', '');
    const search = lines('def f():', '\tif a:', '\t    b()', '    return 1');
    const result = applyOk(file, clineBlock(search, lines('def f():', '\tif a:', '\t    c()', '    return 1')));
    assert.equal(result.content, lines('def f():', '    if a:', '        c()', '    return 1', ''));
  });

  test('a different nesting is still refused', () => {
    const file = lines('def f():', '    if a:', '        b()', '    c()', '');
    applyFails(file, clineBlock(lines('if a:', '    b()', '    c()'), lines('if a:', '    b()', '    d()')));
  });
});

describe('a miss says what was tried', () => {
  const head = (error: string) => error.split('\n')[0]!;

  test('a numbered SEARCH of three lines: every tolerance is tried and named', () => {
    const failure = applyFails(FILE, clineBlock(lines('1 | delta', '2 | epsilon', '3 | zeta'), 'x'));
    for (const description of Object.values(STRATEGY_DESCRIPTIONS)) {
      assert.ok(head(failure.error).includes(description), `the message does not mention "${description}":\n${failure.error}`);
    }
  });

  test('a one-line SEARCH without numbers: line numbers and anchors were not tried, so not named', () => {
    const failure = applyFails(FILE, clineBlock('delta', 'DELTA'));
    assert.equal(
      head(failure.error),
      'SEARCH block 1 of 1 does not match the file. Tried, always on whole lines: exactly, ignoring trailing whitespace, ignoring indentation, ignoring indentation and blank lines, ignoring whitespace and typographic quotes/dashes and ignoring runs of spaces inside lines.',
    );
  });
});
