import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderTerminalText, TerminalText } from '../../../src/core/process/terminal-text.js';

describe('TerminalText', () => {
  test('a carriage return moves the cursor; later text overwrites, the rest of the line stays', () => {
    assert.equal(renderTerminalText('abcdef\rxy'), 'xycdef');
    assert.equal(renderTerminalText(' 10%\r 50%\r100%'), '100%');
    assert.equal(renderTerminalText('done 100%\r'), 'done 100%');
    assert.equal(renderTerminalText('a\r\nb\r\n'), 'a\nb\n');
  });

  test('erase in line: to the end, to the start, the whole line', () => {
    assert.equal(renderTerminalText('abcdef\r\x1b[Kxy'), 'xy');
    assert.equal(renderTerminalText('abcdef\x1b[3D\x1b[0Kz'), 'abcz');
    assert.equal(renderTerminalText('abcdef\x1b[3D\x1b[1K'), '    ef');
    assert.equal(renderTerminalText('abcdef\x1b[2K\r50%'), '50%');
  });

  test('column moves and backspace', () => {
    assert.equal(renderTerminalText('abc\x1b[1Gz'), 'zbc');
    assert.equal(renderTerminalText('ab\x1b[3Cz'), 'ab   z');
    assert.equal(renderTerminalText('abc\b\bX'), 'aXc');
    assert.equal(renderTerminalText('\b\bok'), 'ok');
  });

  test('drops colours, titles, hyperlinks, charset selection and shell-integration marks; keeps tabs and unicode', () => {
    const text = '\x1b]633;C\x07\x1b[1;31mred\x1b[0m\tplain \x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ \x1b(Bé ✓ 😀\x1b[?2004l\x07';
    assert.equal(renderTerminalText(text), 'red\tplain link é ✓ 😀');
  });

  test('escape sequences split across chunks are completed by the next chunk', () => {
    const terminal = new TerminalText();
    const lines = [...terminal.write('\x1b'), ...terminal.write('[3'), ...terminal.write('2mgreen\x1b]0;ti'), ...terminal.write('tle\x07\n')];
    assert.deepEqual(lines, ['green']);
  });

  test('a lone ESC that starts no sequence is dropped, the text after it stays', () => {
    assert.equal(renderTerminalText('a\x1b\nb'), 'a\nb');
    assert.equal(renderTerminalText('a\x1b[\u00e9b'), 'a[éb');
  });

  test('fish starts a command with mode changes, a title and a carriage return', () => {
    assert.equal(renderTerminalText("\x1b]633;C\x07\x1b[?2004l\x1b]0;printf 'a' /t/ws\x07\x1b[30m\x1b(B\x1b[m\ra\r\nb\r\n"), 'a\nb\n');
  });

  test('breakLine() and forgetLine() end the current line', () => {
    const terminal = new TerminalText();
    terminal.write('long');
    assert.equal(terminal.breakLine(), 'long');
    assert.equal(terminal.currentLine, '');
    terminal.write('abc');
    terminal.forgetLine();
    terminal.write('\rx');
    assert.equal(terminal.currentLine, 'x');
  });
});
