import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isElisionLine } from '../../../src/core/edit/elision.js';
import { applySearchReplace } from '../../../src/core/edit/search-replace-engine.js';

const file = ['function total(items) {', '  let sum = 0;', '  for (const item of items) {', '    sum += item.price;', '  }', '  return sum;', '}', ''].join(
  '\n',
);

describe('elided SEARCH text', () => {
  test('recognises the comments models write for left-out code, not ordinary lines', () => {
    for (const line of ['// ... existing code ...', '  /* ... */', '# ...', '<!-- ... -->', '…', '// ... rest of the function ...'])
      assert.ok(isElisionLine(line), line);
    for (const line of ['  sum += item.price;', '// see the docs', 'const a = [...b];', '...args']) assert.ok(!isElisionLine(line), line);
  });

  test('a block eliding the same stretch in SEARCH and REPLACE keeps the elided lines', () => {
    const diff = [
      '------- SEARCH',
      'function total(items) {',
      '  // ... existing code ...',
      '  return sum;',
      '=======',
      'function total(items = []) {',
      '  // ... existing code ...',
      '  return Math.round(sum);',
      '+++++++ REPLACE',
    ].join('\n');
    const result = applySearchReplace(file, diff);
    assert.ok(result.ok, result.ok ? '' : result.error);
    assert.equal(result.content, file.replace('function total(items) {', 'function total(items = []) {').replace('  return sum;', '  return Math.round(sum);'));
  });

  test('an elision in SEARCH only is refused with a clear reason, and nothing changes', () => {
    const diff = [
      '------- SEARCH',
      'function total(items) {',
      '  // ...',
      '  return sum;',
      '=======',
      'function total(items) {',
      '  return 0;',
      '+++++++ REPLACE',
    ].join('\n');
    const result = applySearchReplace(file, diff);
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.error, /leaves out code with 1 "\.\.\." line\(s\) but the REPLACE text has 0/);
  });

  test('a literal "..." line that is really in the file is matched as written', () => {
    const python = 'def todo():\n    ...\n\nx = 1\n';
    const result = applySearchReplace(python, '------- SEARCH\ndef todo():\n    ...\n=======\ndef todo():\n    return 1\n+++++++ REPLACE');
    assert.ok(result.ok);
    assert.equal(result.ok && result.content, 'def todo():\n    return 1\n\nx = 1\n');
  });
});
