import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeText, encodeText } from '../../../src/core/edit/text-format.js';
import { applyOk, clineBlock, lines } from './edit-test-helpers.js';

const crlf = (...parts: string[]): string => parts.join('\r\n');

describe('line endings', () => {
  test('a CRLF file stays CRLF, including the replaced and added lines', () => {
    const result = applyOk(crlf('a', 'b', 'c', ''), clineBlock('b', lines('B1', 'B2')));
    assert.equal(result.content, crlf('a', 'B1', 'B2', 'c', ''));
  });

  test('a CRLF diff on a CRLF file', () => {
    const diff = clineBlock(lines('a', 'b'), lines('x', 'y')).replace(/\n/g, '\r\n');
    assert.equal(applyOk(crlf('a', 'b', 'c', ''), diff).content, crlf('x', 'y', 'c', ''));
  });

  test('a tolerant (line-based) match in a CRLF file', () => {
    const result = applyOk(
      crlf('if (a) {', '    run();  ', '}', ''),
      clineBlock(lines('if (a) {', '  run();', '}'), lines('if (a) {', '  run();', '  stop();', '}')),
    );
    assert.equal(result.content, crlf('if (a) {', '    run();  ', '    stop();', '}', ''));
    assert.deepEqual(result.strategies, ['indentation']);
  });

  test('deleting a line in a CRLF file leaves no stray CR', () => {
    assert.equal(applyOk(crlf('a', 'b', 'c', ''), clineBlock('b', '')).content, crlf('a', 'c', ''));
  });

  test('a mostly-CRLF file is written back CRLF', () => {
    const result = applyOk('a\r\nb\r\nc\nd\r\n', clineBlock('a', 'A'));
    assert.equal(result.content, crlf('A', 'b', 'c', 'd', ''));
  });
});

test('BOM, CRLF and no final newline together survive a tolerant multi-block edit', () => {
  const file = `\uFEFF${crlf('function f() {', '\treturn 1;  ', '}', 'function g() {', '\treturn 2;', '}')}`;
  const diff = [clineBlock('    return 1;', '    return 10;'), clineBlock(lines('function g() {', '    return 2;', '}'), '')].join('\n');
  const result = applyOk(file, diff);
  assert.equal(result.content, `\uFEFF${crlf('function f() {', '\treturn 10;', '}')}`);
  assert.deepEqual(result.strategies, ['indentation', 'indentation']);
});

describe('byte order mark', () => {
  test('a BOM is kept and not part of matching', () => {
    const result = applyOk(`\uFEFF${lines('first', 'second', '')}`, clineBlock('first', 'FIRST'));
    assert.equal(result.content, `\uFEFF${lines('FIRST', 'second', '')}`);
    assert.deepEqual(result.strategies, ['exact']);
  });

  test('a BOM with CRLF line endings', () => {
    const result = applyOk(`\uFEFF${crlf('one', 'two', '')}`, clineBlock(lines('one', 'two'), lines('1', '2')));
    assert.equal(result.content, `\uFEFF${crlf('1', '2', '')}`);
  });
});

describe('final newline', () => {
  test('a file without a final newline stays without one', () => {
    assert.equal(applyOk(lines('a', 'b'), clineBlock('b', 'B')).content, lines('a', 'B'));
  });

  test('lines appended after the last line of a file without final newline', () => {
    assert.equal(applyOk(lines('a', 'b'), clineBlock('b', lines('b', 'c'))).content, lines('a', 'b', 'c'));
  });

  test('a REPLACE ending in a blank line does not add a final newline', () => {
    assert.equal(applyOk(lines('a', 'b'), clineBlock('b', lines('B', ''))).content, lines('a', 'B'));
  });

  test('a file with a final newline keeps it when its last line is replaced', () => {
    assert.equal(applyOk(lines('a', 'b', ''), clineBlock('b', 'B')).content, lines('a', 'B', ''));
  });

  test('deleting the last line of a file without final newline', () => {
    assert.equal(applyOk(lines('a', 'b'), clineBlock('b', '')).content, 'a');
  });

  test('deleting the last line of a file with a final newline', () => {
    assert.equal(applyOk(lines('a', 'b', ''), clineBlock('b', '')).content, lines('a', ''));
  });
});

describe('empty files', () => {
  test('an empty SEARCH on an empty file writes the REPLACE as the content', () => {
    const result = applyOk('', clineBlock('', lines('hello', 'world')));
    assert.equal(result.content, lines('hello', 'world', ''));
    assert.deepEqual(result.strategies, ['empty-file']);
  });

  test('an empty SEARCH on an empty file with a BOM keeps the BOM', () => {
    assert.equal(applyOk('\uFEFF', clineBlock('', 'x')).content, '\uFEFFx\n');
  });
});

describe('decodeText / encodeText', () => {
  test('round-trips every format unchanged', () => {
    for (const raw of ['', 'a', 'a\n', 'a\r\nb\r\n', '\uFEFFa\r\nb', '\uFEFF', 'a\n\n']) {
      const { text, format } = decodeText(raw);
      assert.equal(encodeText(text, format), raw);
    }
  });

  test('reports the format it found', () => {
    assert.deepEqual(decodeText('\uFEFFa\r\nb'), { text: 'a\nb', format: { bom: true, eol: '\r\n', finalNewline: false } });
    assert.deepEqual(decodeText('a\nb\n'), { text: 'a\nb\n', format: { bom: false, eol: '\n', finalNewline: true } });
  });
});
