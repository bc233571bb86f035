import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { bestWindows, findClosestRegion } from '../../../src/core/edit/closest-region.js';
import type { ClosestRegion } from '../../../src/core/edit/closest-region.js';
import { isBlank, punctuationNormaliser } from '../../../src/core/edit/line-normalisers.js';
import { linesSimilarity } from '../../../src/core/edit/similarity.js';

// The closest-region search scores lines from the file's bytes rather than from split, normalised
// line strings. This reference is the string version it replaced, kept whole so that every answer
// of the fast scan can be checked against it.
function referenceClosestRegion(fileLines: readonly string[], search: readonly string[]): ClosestRegion | undefined {
  const TOKEN = /[A-Za-z0-9_$]{2,}/g;
  const tokenSet = (line: string): Set<string> => {
    const text = line.slice(0, 300);
    const tokens = new Set(text.match(TOKEN) ?? []);
    if (tokens.size === 0 && text.trim() !== '') tokens.add(text.trim());
    return tokens;
  };
  const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
    if (a.size === 0 || b.size === 0) return 0;
    let shared = 0;
    for (const token of b) if (a.has(token)) shared++;
    return shared / (a.size + b.size - shared);
  };
  const searchContent = search.filter((line) => !isBlank(line));
  const wanted = searchContent.slice(0, 20).map(punctuationNormaliser);
  if (wanted.length === 0) return undefined;
  const content = fileLines.flatMap((line, index) => (isBlank(line) ? [] : [index]));
  if (content.length === 0) return undefined;
  const all = wanted.map((line, offset) => ({ offset, tokens: tokenSet(line) }));
  const rest = all.slice(1).sort((a, b) => b.tokens.size - a.tokens.size);
  const anchors = [all[0]!, ...rest].slice(0, 3).filter((anchor) => anchor.tokens.size > 0);
  const scored: Array<{ window: number; score: number }> = [];
  content.forEach((fileIndex, position) => {
    const tokens = tokenSet(punctuationNormaliser(fileLines[fileIndex]!));
    for (const anchor of anchors) {
      const score = jaccard(anchor.tokens, tokens);
      if (score > 0) scored.push({ window: Math.max(0, position - anchor.offset), score });
    }
  });
  scored.sort((a, b) => b.score - a.score || a.window - b.window);
  const windows = [...new Set(scored.map((entry) => entry.window))].slice(0, 12);
  let best: { window: number; similarity: number } | undefined;
  for (const window of windows) {
    const region = content.slice(window, window + wanted.length).map((i) => punctuationNormaliser(fileLines[i]!));
    while (region.length < wanted.length) region.push('');
    const similarity = linesSimilarity(wanted, region);
    if (!best || similarity > best.similarity) best = { window, similarity };
  }
  if (!best) return undefined;
  const first = content[best.window]!;
  const last = content[Math.min(content.length - 1, best.window + wanted.length - 1)]!;
  return {
    startLine: first,
    lines: fileLines.slice(first, last + 1),
    similarity: best.similarity,
    wholeSearchCompared: wanted.length === searchContent.length,
  };
}

function assertSameAsReference(text: string, search: readonly string[]): void {
  assert.deepEqual(findClosestRegion(text, search), referenceClosestRegion(text.split('\n'), search));
}

// Pieces that exercise each rule of the scan: word tokens (with `$` and `_`), punctuation-only
// lines, whitespace that trim removes (tabs, CR, VT, FF, NBSP, ideographic space), typographic
// characters that normalisation rewrites or deletes, and characters beyond ASCII and the BMP.
const PIECES = [
  'order',
  'total',
  'id',
  'x',
  '$el',
  '_tmp',
  'a1',
  '42',
  'const',
  'return',
  'if',
  'store.load(id)',
  ' ',
  '  ',
  '\t',
  '\r',
  '\v',
  '\f',
  '\u00A0',
  '\u3000',
  '(',
  ');',
  '});',
  '{',
  '}',
  '=',
  '.',
  ',',
  "'",
  '"',
  '\u2018',
  '\u201C',
  '\u2014',
  '\u2026',
  '\u200B',
  '\uFEFF',
  'é',
  '日本',
  '😀',
  '\uD800',
];
const line = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((parts) => parts.join(''));
// Lines past the 300 tokenised characters, with a token the limit cuts and non-ASCII text after it.
const longLine = fc
  .tuple(fc.constantFrom('', '  ', '\u00A0'), fc.integer({ min: 280, max: 310 }), fc.constantFrom('orderTotal', 'é ', ' id'), line)
  .map(([indent, width, tail, more]) => `${indent}${'ab '.repeat(width).slice(0, width)}${tail}${more}`);
const fileLines = fc.array(fc.oneof({ weight: 12, arbitrary: line }, { weight: 1, arbitrary: longLine }), { maxLength: 40 });

describe('findClosestRegion', () => {
  test('gives the same region as the string implementation on random files and SEARCH texts', () => {
    fc.assert(
      fc.property(fileLines, fc.array(line, { minLength: 1, maxLength: 6 }), (lines, search) => {
        assertSameAsReference(lines.join('\n'), search);
      }),
      { numRuns: 2000 },
    );
  });

  test('gives the same region when the SEARCH is a changed excerpt of the file', () => {
    const fileAndSearch = fileLines
      .filter((lines) => lines.length > 0)
      .chain((lines) =>
        fc.record({
          lines: fc.constant(lines),
          from: fc.nat({ max: lines.length - 1 }),
          size: fc.integer({ min: 1, max: 5 }),
          changed: line,
        }),
      );
    fc.assert(
      fc.property(fileAndSearch, ({ lines, from, size, changed }) => {
        const search = lines.slice(from, from + size);
        search[Math.floor(search.length / 2)] = changed;
        assertSameAsReference(lines.join('\n'), search);
      }),
      { numRuns: 1000 },
    );
  });

  test('matches the reference on lines the tokenised limit cuts and on text after it', () => {
    const cut = `${'x '.repeat(149)}orderTotal é`;
    const text = ['function f() {', cut, `  ${cut}`, '\u00A0\u00A0orderTo', 'orderTo();', ''].join('\n');
    assertSameAsReference(text, ['orderTo();']);
    assertSameAsReference(text, ['orderTotal']);
    assert.equal(findClosestRegion(text, ['orderTo();'])?.startLine, 4);
  });

  test('reports the line numbers and the raw lines of the region, blank lines included', () => {
    const text = ['import x;', '', 'function area(r) {', '', '  return r * r;', '}', ''].join('\n');
    const region = findClosestRegion(text, ['function area(radius) {', '  return radius * radius;']);
    assert.equal(region?.startLine, 2);
    assert.deepEqual(region?.lines, ['function area(r) {', '', '  return r * r;']);
    assert.equal(region?.wholeSearchCompared, true);
  });

  test('finds nothing in a blank file or for a blank SEARCH', () => {
    assert.equal(findClosestRegion(' \n\t\n', ['a']), undefined);
    assert.equal(findClosestRegion('a\nb', ['  ', '']), undefined);
    assert.equal(findClosestRegion('alpha beta', ['gamma']), undefined);
  });
});

describe('bestWindows', () => {
  test('orders windows by score, the earlier first among equals, as sorting every score would', () => {
    const scores = fc.array(fc.constantFrom(0, 0, 0.25, 0.5, 0.5, 1 / 3, 1), { maxLength: 60 });
    fc.assert(
      fc.property(scores, fc.integer({ min: 0, max: 15 }), (list, limit) => {
        const sorted = list
          .map((score, window) => ({ score, window }))
          .filter((entry) => entry.score > 0)
          .sort((a, b) => b.score - a.score || a.window - b.window)
          .slice(0, limit)
          .map((entry) => entry.window);
        assert.deepEqual(bestWindows(list, limit), sorted);
      }),
    );
  });
});
