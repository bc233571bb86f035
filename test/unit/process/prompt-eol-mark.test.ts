import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OutputBuffer } from '../../../src/core/process/output-buffer.js';
import { PromptEolMarkFilter, withoutPromptEolMark } from '../../../src/core/process/prompt-eol-mark.js';

// What zsh 5.9 prints before each prompt with its default options, for a terminal `columns` wide:
// the mark (bold, reverse video), spaces to the margin, "\r", spaces over the mark, "\r".
function promptSp(columns: number, mark = '\x1b[1m\x1b[7m%\x1b[27m\x1b[1m\x1b[0m', width = 1): string {
  return `${mark}${' '.repeat(columns - width)}\r${' '.repeat(width)}\r`;
}

function filtered(chunks: readonly string[]): string {
  const filter = new PromptEolMarkFilter();
  return chunks.map((chunk) => filter.push(chunk)).join('') + filter.end();
}

function modelText(chunks: readonly string[]): string {
  const buffer = new OutputBuffer();
  buffer.append(filtered(chunks));
  return buffer.render();
}

describe('PromptEolMarkFilter', () => {
  test('output with and without a final newline comes through exactly', () => {
    assert.equal(modelText([`\x1b]633;C\x07a\r\nb\r\n${promptSp(80)}`]), 'a\nb');
    assert.equal(modelText([`\x1b]633;C\x07no newline${promptSp(80)}`]), 'no newline');
    assert.equal(modelText([`\x1b]633;C\x07${promptSp(133, '\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m')}`]), '');
    assert.equal(filtered([`x\r\n${promptSp(80)}`]), 'x\r\n\x1b[1m\x1b[7m');
  });

  test('any chunking, a custom mark, no mark, and a title printed by a precmd hook after it', () => {
    const stream = `one\r\ntwo${promptSp(100, '\x1b[33m⏎\x1b[0m')}\x1b]0;user@host: ~/ws\x07`;
    for (let size = 1; size <= stream.length; size += 7) {
      const chunks: string[] = [];
      for (let i = 0; i < stream.length; i += size) chunks.push(stream.slice(i, i + size));
      assert.equal(modelText(chunks), 'one\ntwo', `chunks of ${size}`);
    }
    assert.equal(modelText([`last${' '.repeat(80)}\r\r`]), 'last');
    assert.equal(modelText([`last${promptSp(80, '<EOL>', 5)}`]), 'last');
  });

  test('text that only looks like the start of it is passed on unchanged', () => {
    assert.equal(filtered(['Name:   ', 'Ada\r\n']), 'Name:   Ada\r\n');
    assert.equal(filtered(['spinner |  \r', 'spinner /  \r', 'done\n']), 'spinner |  \rspinner /  \rdone\n');
    assert.equal(filtered(['ends in spaces   ']), 'ends in spaces   ');
    // Not the end of the stream: the sequence was followed by more output.
    assert.equal(filtered([`a${promptSp(40)}b\n`]), `a${promptSp(40)}b\n`);
    // Spaces over the mark wider than what was printed before them: not the sequence.
    assert.equal(withoutPromptEolMark(`${' '.repeat(10)}\r   \r`), `${' '.repeat(10)}\r   \r`);
  });

  test('a pause releases held text unless it is the whole sequence', () => {
    const filter = new PromptEolMarkFilter();
    assert.equal(filter.push('Password: '), '');
    assert.equal(filter.holding, true);
    assert.equal(filter.release(), 'Password: ');
    // At most the last 32 characters of the line wait for the next chunk or a pause.
    assert.equal(filter.push('a long line that goes on and on and on'), 'a long');
    assert.equal(filter.release(), ' line that goes on and on and on');
    assert.equal(filter.push('\r\n'), '\r\n');
    assert.equal(filter.push(`ok\r\n${promptSp(60)}`), 'ok\r\n');
    assert.equal(filter.release(), '');
    assert.equal(filter.end().replace(/\x1b\[[0-9;]*m/g, ''), '');
  });

  test('held text stays small whatever the output', () => {
    const filter = new PromptEolMarkFilter();
    const line = `${'word '.repeat(2000)}`;
    const passed = filter.push(line);
    assert.ok(line.length - passed.length <= 32 * 5 + 1, `held ${line.length - passed.length} characters`);
    assert.equal(passed + filter.end(), line);
  });
});
