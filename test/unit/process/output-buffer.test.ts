import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OutputBuffer, stripAnsi } from '../../../src/core/process/output-buffer.js';

describe('stripAnsi', () => {
  test('removes colours, cursor moves, OSC titles and links, keeps tabs', () => {
    const text = '\x1b[1;31mred\x1b[0m\tplain \x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ \x1b[2K\x1b[1Gdone\x07';
    assert.equal(stripAnsi(text), 'red\tplain link done');
  });
});

describe('OutputBuffer', () => {
  test('keeps short output whole, with an unfinished last line', () => {
    const buffer = new OutputBuffer();
    buffer.append('one\ntwo\nthr');
    buffer.append('ee');
    assert.equal(buffer.render(), 'one\ntwo\nthree');
    assert.equal(buffer.truncated, false);
  });

  test('collapses progress bars and CRLF even when split across chunks', () => {
    const buffer = new OutputBuffer();
    for (const chunk of ['start\r', '\nDownloading  10%\r', 'Downloading  60%\r', 'Downloading 100%\r', '\n', 'end\r\n']) buffer.append(chunk);
    assert.equal(buffer.render(), 'start\nDownloading 100%\nend');
  });

  test('keeps the last state of a line rewritten with carriage returns', () => {
    for (const [input, shown] of [
      [' 10%\r 50%\r100%', '100%'],
      ['done 100%\r', 'done 100%'],
      ['plain', 'plain'],
    ]) {
      const buffer = new OutputBuffer();
      buffer.append(input!);
      assert.equal(buffer.render(), shown);
    }
  });

  test('shows a line as the terminal does: shorter rewrites overwrite, erase-line clears, colours go', () => {
    const buffer = new OutputBuffer();
    for (const chunk of ['Downloading [#####     ] 50%', '\r\x1b[2KDownloading [##########] 100%\n', 'abcdef\rxy\n', '\x1b[32mok\x1b[0m\n'])
      buffer.append(chunk);
    assert.equal(buffer.render(), 'Downloading [##########] 100%\nxycdef\nok');
  });

  test('an unfinished last line without a newline is kept whole', () => {
    const buffer = new OutputBuffer();
    buffer.append('\x1b]633;C\x07no newline');
    assert.equal(buffer.render(), 'no newline');
    assert.equal(buffer.isEmpty, false);
  });

  test('strips ANSI codes split across chunks', () => {
    const buffer = new OutputBuffer();
    buffer.append('\x1b[3');
    buffer.append('2mgreen\x1b[0m\n');
    assert.equal(buffer.render(), 'green');
  });

  test('keeps head and tail lines and says how many were cut', () => {
    const buffer = new OutputBuffer({ headLines: 3, tailLines: 2, maxChars: 10_000 });
    buffer.append(`${Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n')}\n`);
    assert.equal(buffer.render(), 'line 1\nline 2\nline 3\n[... 5 lines (35 characters) omitted ...]\nline 9\nline 10');
    assert.equal(buffer.truncated, true);
  });

  test('caps by characters when lines are long', () => {
    const buffer = new OutputBuffer({ headLines: 100, tailLines: 300, maxChars: 4000 });
    const line = 'x'.repeat(99);
    for (let i = 0; i < 1000; i++) buffer.append(`${i} ${line}\n`);
    const text = buffer.render();
    assert.ok(text.length <= 4200, `rendered ${text.length} characters`);
    assert.match(text, /^0 x+\n/);
    assert.match(text, /\n999 x+$/);
    assert.match(text, /\[\.\.\. [\d,]+ lines \([\d,]+ characters\) omitted \.\.\.\]/);
  });

  test('a single endless line is cut too', () => {
    const buffer = new OutputBuffer({ headLines: 10, tailLines: 10, maxChars: 1000 });
    for (let i = 0; i < 100; i++) buffer.append('abcdefghij'.repeat(100));
    const text = buffer.render();
    assert.ok(text.length <= 2100, `rendered ${text.length} characters`);
    assert.ok(buffer.truncated);
  });

  test('take() returns what was collected and starts over', () => {
    const buffer = new OutputBuffer();
    buffer.append('a\nb\n');
    assert.equal(buffer.take(), 'a\nb');
    assert.equal(buffer.isEmpty, true);
    buffer.append('c\n');
    assert.equal(buffer.take(), 'c');
  });
});
