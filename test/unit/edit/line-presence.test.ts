import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { innerWhitespaceNormaliser, punctuationNormaliser, trimEndNormaliser, trimNormaliser } from '../../../src/core/edit/line-normalisers.js';
import { absentLineCheck, lineNeedle, someLineAbsent } from '../../../src/core/edit/line-presence.js';

const NORMALISERS = [trimEndNormaliser, trimNormaliser, punctuationNormaliser, innerWhitespaceNormaliser];

// SEARCH lines from code-like pieces, and file lines a tolerant strategy would take for them:
// other indentation and trailing whitespace, runs of spaces and tabs, typographic quotes, dashes,
// odd spaces and ellipses in place of their ASCII forms (and the other way round).
const PIECES = ['const', 'x', '=', "'a'", '"b"', 'a-b', '...', '(', ');', '{', '}', 'id.name', '$v', '1', 'é', '日'];
const SPACING = [' ', '  ', '\t', '\u00A0', ' \t '];
const searchLine = fc
  .tuple(fc.constantFrom('', '  ', '\t'), fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(' ', '')), { minLength: 1, maxLength: 8 }))
  .map(([indent, parts]) => indent + parts.map(([piece, gap]) => piece + gap).join(''));
const TYPOGRAPHIC: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/'/g, ['\u2018', '\u2019', '\u2032']],
  [/"/g, ['\u201C', '\u201D']],
  [/-/g, ['\u2013', '\u2014', '\u2212']],
  [/\.\.\./g, ['\u2026']],
  [/ /g, SPACING],
];

function variant(line: string, indent: string, trailing: string, swaps: readonly number[]): string {
  let text = line.trim();
  TYPOGRAPHIC.forEach(([ascii, forms], i) => {
    let k = 0;
    text = text.replace(ascii, (match) => {
      const swap = swaps[(i + k++) % swaps.length]!;
      return swap < forms.length ? forms[swap]! : match;
    });
  });
  return indent + text + trailing;
}

describe('lineNeedle', () => {
  test('every file line that a tolerant normaliser matches with the SEARCH line contains its needle', () => {
    const cases = fc.record({
      search: searchLine,
      indent: fc.constantFrom('', ' ', '    ', '\t\t', '\u3000'),
      trailing: fc.constantFrom('', ' ', '\t', '\r', '\u00A0'),
      swaps: fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 6 }),
    });
    let matched = 0;
    fc.assert(
      fc.property(cases, ({ search, indent, trailing, swaps }) => {
        const file = variant(search, indent, trailing, swaps);
        if (!NORMALISERS.some((normalise) => normalise(file) === normalise(search))) return;
        matched++;
        assert.ok(file.includes(lineNeedle(search)), `${JSON.stringify(file)} lacks ${JSON.stringify(lineNeedle(search))}`);
        assert.equal(absentLineCheck(`first\n${file}\nlast`)(search), false);
      }),
      { numRuns: 3000 },
    );
    assert.ok(matched > 1000, `only ${matched} of the generated lines matched: the property says little`);
  });

  test('is the longest run without whitespace, quotes, dashes, dots or typographic characters', () => {
    assert.equal(lineNeedle('  const total = order.items.reduce(sum, 0);'), 'reduce(sum,');
    assert.equal(lineNeedle('print(\u201Chi\u201D)'), 'print(');
    assert.equal(lineNeedle('   '), '');
  });
});

describe('absentLineCheck', () => {
  const text = ['function area(r) {', '  return r * r;', '}'].join('\n');

  test('says a line is absent when its needle is nowhere in the text', () => {
    const isAbsent = absentLineCheck(text);
    assert.equal(isAbsent('  return radius * radius;'), true);
    assert.equal(isAbsent('    return   r * r;'), false);
    assert.equal(isAbsent('function area(r) {   '), false);
    assert.equal(isAbsent('   '), false);
  });

  test('never says so when the text has characters that normalisation deletes', () => {
    // "re\u200Bturn" normalises to "return", so runs of the file may be split by invisible characters.
    const isAbsent = absentLineCheck(`${text}\nre\u200Bturn radius;`);
    assert.equal(isAbsent('return radius;'), false);
    assert.equal(isAbsent('something else entirely'), false);
  });
});

describe('someLineAbsent', () => {
  test('checks the non-blank lines with the longest needles, at most three of them', () => {
    const asked: string[] = [];
    const isAbsent = (line: string): boolean => {
      asked.push(line);
      return line === 'zz';
    };
    assert.equal(someLineAbsent(['a', '', 'bbbb', 'cc', 'ddd', 'zz'], isAbsent), false);
    assert.deepEqual(asked, ['bbbb', 'ddd', 'cc']);
    asked.length = 0;
    assert.equal(someLineAbsent(['a', '  ', 'zz'], isAbsent), true);
    assert.deepEqual(asked, ['zz']);
  });
});
