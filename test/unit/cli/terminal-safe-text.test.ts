import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settledTerminalLength, terminalSafeText } from '../../../src/cli/terminal-safe-text.js';
import { createStyle } from '../../../src/cli/style.js';
import { SecretRedactor } from '../../../src/core/secrets/secret-redactor.js';

const ESC = '\x1b';
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('terminal-safe text', () => {
  test('removes escape sequences whole and keeps the text around them', () => {
    const cases: Array<[string, string]> = [
      [`copy${ESC}]52;c;aGVsbG8=\x07 this`, 'copy this'],
      [`title${ESC}]0;pwned${ESC}\\ here`, 'title here'],
      [`clear${ESC}[2J${ESC}[H${ESC}[3;4f screen`, 'clear screen'],
      [`colour ${ESC}[31mred${ESC}[0m`, 'colour red'],
      [`bell\x07 and backspace\b`, 'bell and backspace'],
      [`c1 \x9b2J\x9d0;t\x9c\x85end`, 'c1 end'],
      [`reset${ESC}c and charset${ESC}(B.`, 'reset and charset.'],
      [`dcs${ESC}P1$qm${ESC}\\ apc${ESC}_x${ESC}\\.`, 'dcs apc.'],
      ['tabs\tand\nlines stay', 'tabs\tand\nlines stay'],
      ['over\rwrite', 'over\nwrite'],
      ['crlf\r\nline', 'crlf\nline'],
      ['unicode ✓ — ü', 'unicode ✓ — ü'],
    ];
    for (const [input, expected] of cases) assert.equal(terminalSafeText(input), expected, JSON.stringify(input));
  });

  test('an unterminated control string is removed to the end of its line', () => {
    assert.equal(terminalSafeText(`a${ESC}]52;c;payload`), 'a');
    assert.equal(terminalSafeText(`a${ESC}]8;;x\nnext`), 'a\nnext');
  });

  test('streaming: an escape sequence split across chunks is held back until complete', () => {
    const text = `Hi ${ESC}]52;c;ZZZZ\x07 there ${ESC}[2J done`;
    for (let size = 1; size <= 8; size++) {
      let printed = 0;
      let out = '';
      for (let end = size; end < text.length + size; end += size) {
        const now = text.slice(0, Math.min(end, text.length));
        const settled = settledTerminalLength(now, printed);
        out += terminalSafeText(now.slice(printed, settled));
        printed = Math.max(printed, settled);
      }
      out += terminalSafeText(text.slice(printed));
      assert.equal(out, 'Hi  there  done', `chunk size ${size}`);
      assert.doesNotMatch(out, CONTROL);
    }
  });

  test('style.text redacts secrets and strips sequences; the style itself still colours', () => {
    const redactor = new SecretRedactor();
    redactor.set('provider', ['sk-secret-value-123']);
    const style = createStyle(true, redactor);
    assert.equal(style.text(`key sk-secret-value-123${ESC}[2J`), 'key [REDACTED]');
    assert.equal(style.red('x'), `${ESC}[31mx${ESC}[39m`);
    assert.equal(style.diff(`+added${ESC}]52;c;x\x07`), `${ESC}[32m+added${ESC}[39m`);
  });
});
