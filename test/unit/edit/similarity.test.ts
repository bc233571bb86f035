import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { levenshtein } from '../../../src/core/edit/similarity.js';

// levenshtein skips common prefixes and suffixes and compares short remainders 32 characters at a
// time in the bits of an integer; both must give exactly the distance of the plain table.
function referenceDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

// Few distinct characters make long matches and near-misses likely; the rest reach past ASCII,
// into surrogate pairs, and past the 32 characters one integer holds.
const piece = fc.constantFrom('a', 'b', 'ab', ' ', '(', ');', 'é', '😀', '\u2019', 'order', 'x'.repeat(31), 'y'.repeat(33));
const text = fc.array(piece, { maxLength: 14 }).map((parts) => parts.join(''));

describe('levenshtein', () => {
  test('is the distance of the plain table on random strings', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        assert.equal(levenshtein(a, b), referenceDistance(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  test('is the distance of the plain table on edited copies of one string', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), text, (original, from, length, inserted) => {
        const at = original.length === 0 ? 0 : from % original.length;
        const edited = original.slice(0, at) + inserted + original.slice(at + (length % 5));
        assert.equal(levenshtein(original, edited), referenceDistance(original, edited));
      }),
      { numRuns: 3000 },
    );
  });

  test('at the lengths where one integer stops being enough', () => {
    for (const length of [31, 32, 33, 64, 65]) {
      const a = 'abcdefghij'.repeat(7).slice(0, length);
      const b = `Z${a.slice(1, -1)}Y`;
      assert.equal(levenshtein(a, b), referenceDistance(a, b), `length ${length}`);
      assert.equal(levenshtein(a, b.split('').reverse().join('')), referenceDistance(a, b.split('').reverse().join('')), `reversed, length ${length}`);
    }
  });
});
