import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { decodeText, encodeText } from '../../../src/core/edit/text-format.js';
import { applyOk, clineBlock } from './edit-test-helpers.js';

/** A file of distinct lines in some on-disk format, and how to build a variant of it. */
interface GeneratedFile {
  readonly lines: readonly string[];
  readonly eol: '\n' | '\r\n';
  readonly bom: boolean;
  readonly finalNewline: boolean;
}

function render(file: GeneratedFile, lines: readonly string[] = file.lines): string {
  const body = lines.join(file.eol) + (file.finalNewline && lines.length > 0 ? file.eol : '');
  return (file.bom ? '\uFEFF' : '') + body;
}

// Each line is made unique by its number, so a one-line SEARCH always has exactly one match.
const generatedFile: fc.Arbitrary<GeneratedFile> = fc.record({
  lines: fc
    .array(fc.tuple(fc.constantFrom('', '  ', '    ', '\t'), fc.stringMatching(/^[a-z =;(){}]{0,12}$/)), {
      minLength: 1,
      maxLength: 30,
    })
    .map((parts) => parts.map(([indent, text], i) => `${indent}line${i}: ${text}`.trimEnd())),
  eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
});

const fileAndLine = generatedFile.chain((file) => fc.record({ file: fc.constant(file), index: fc.nat({ max: file.lines.length - 1 }) }));

describe('properties', () => {
  test('decoding and encoding give back any file unchanged', () => {
    fc.assert(
      fc.property(generatedFile, (file) => {
        const raw = render(file);
        const { text, format } = decodeText(raw);
        assert.equal(encodeText(text, format), raw);
      }),
    );
  });

  test('a block whose REPLACE equals its SEARCH leaves the file byte for byte unchanged', () => {
    fc.assert(
      fc.property(fileAndLine, ({ file, index }) => {
        const raw = render(file);
        assert.equal(applyOk(raw, clineBlock(file.lines[index]!, file.lines[index]!)).content, raw);
      }),
    );
  });

  test("replacing one line changes only that line, in the file's format", () => {
    fc.assert(
      fc.property(fileAndLine, ({ file, index }) => {
        const expected = file.lines.map((line, i) => (i === index ? 'CHANGED();' : line));
        assert.equal(applyOk(render(file), clineBlock(file.lines[index]!, 'CHANGED();')).content, render(file, expected));
      }),
    );
  });

  test('deleting one line removes exactly that line', () => {
    fc.assert(
      fc.property(
        fileAndLine.filter(({ file }) => file.lines.length > 1),
        ({ file, index }) => {
          const expected = file.lines.filter((_, i) => i !== index);
          assert.equal(applyOk(render(file), clineBlock(file.lines[index]!, '')).content, render(file, expected));
        },
      ),
    );
  });

  test('a SEARCH written without indentation still replaces the right line, re-indented', () => {
    fc.assert(
      fc.property(fileAndLine, ({ file, index }) => {
        const line = file.lines[index]!;
        const indent = /^[ \t]*/.exec(line)![0];
        const expected = file.lines.map((l, i) => (i === index ? `${indent}CHANGED();` : l));
        assert.equal(applyOk(render(file), clineBlock(line.trim(), 'CHANGED();')).content, render(file, expected));
      }),
    );
  });
});
