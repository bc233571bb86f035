// The SEARCH/REPLACE corpus again, with the user changing each file after the model read it: the
// model's edit (applied to the version it read) is merged three ways into the user's version.
// A user change away from the edit must come out as exactly the expected file plus that change;
// one on the lines the edit changes must be a conflict. Nothing may come out wrong.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applySearchReplace } from '../../../src/core/edit/search-replace-engine.js';
import { decodeText, encodeText } from '../../../src/core/edit/text-format.js';
import { mergeThreeWay } from '../../../src/core/edit/three-way-merge.js';
import { type EditCase, loadEditCorpus } from '../../../bench/fixtures/edit-corpus.js';

const cases = loadEditCorpus().filter((c) => c.expect === 'apply');

/** The lines of the original the model's edit replaced: original[start, end). */
function editedSpan(original: readonly string[], edited: readonly string[]): { start: number; end: number } {
  let start = 0;
  const shortest = Math.min(original.length, edited.length);
  while (start < shortest && original[start] === edited[start]) start++;
  let tail = 0;
  while (tail < shortest - start && original[original.length - 1 - tail] === edited[edited.length - 1 - tail]) tail++;
  return { start, end: original.length - tail };
}

/** The user's change away from the edit: a line above it, and a change to a line below it (each where there is room). */
function userChange(lines: readonly string[], span: { start: number; end: number }): ((lines: readonly string[]) => string[]) | undefined {
  const last = lines.at(-1) === '' ? lines.length - 2 : lines.length - 1;
  // A line counted from the end, so it is the same line in the original and in the expected file.
  const fromEnd = lines.length - 1 - last;
  const top = span.start >= 1;
  const bottom = last > span.end;
  if (!top && !bottom) return undefined;
  return (input) => {
    const out = [...input];
    if (bottom) out[out.length - 1 - fromEnd] = `${out[out.length - 1 - fromEnd]} // changed by the user`;
    if (top) out.unshift('// a line the user added at the top');
    return out;
  };
}

function encodeLike(lines: readonly string[], raw: string, flip: boolean): string {
  const { format } = decodeText(raw);
  const text = lines.join('\n');
  const eol = flip ? (format.eol === '\n' ? '\r\n' : '\n') : format.eol;
  return encodeText(text, { bom: flip ? !format.bom : format.bom, eol, finalNewline: text.endsWith('\n') });
}

interface Planned {
  readonly testCase: EditCase;
  readonly ours: string;
  readonly original: string[];
  readonly expected: string[];
  readonly span: { start: number; end: number };
}

const planned: Planned[] = [];
for (const testCase of cases) {
  const edit = applySearchReplace(testCase.original, testCase.diff);
  if (!edit.ok || edit.content !== testCase.expected) continue; // judged by edit-corpus.test.ts
  const original = decodeText(testCase.original).text.split('\n');
  const expected = decodeText(testCase.expected).text.split('\n');
  planned.push({ testCase, ours: edit.content, original, expected, span: editedSpan(original, expected) });
}

describe('SEARCH/REPLACE corpus merged into a file the user changed', () => {
  for (const flip of [false, true]) {
    test(`a user change away from the edit is kept beside it${flip ? ', also with the line endings and BOM switched' : ''}: 0 wrong`, () => {
      const wrong: string[] = [];
      let merged = 0;
      for (const { testCase, ours, original, expected, span } of planned) {
        const change = userChange(original, span);
        if (!change) continue;
        const theirs = encodeLike(change(original), testCase.original, flip);
        const want = encodeLike(change(expected), testCase.original, flip);
        const result = mergeThreeWay(testCase.original, ours, theirs);
        merged++;
        if (result.kind !== 'clean') wrong.push(`${testCase.id}: ${result.kind}`);
        else if (result.text !== want) wrong.push(`${testCase.id}: merged text differs`);
      }
      assert.deepEqual(wrong, []);
      // Nearly every case has room for a change away from its edit (a few edit the whole file).
      assert.ok(merged >= planned.length * 0.9, `only ${merged} of ${planned.length} cases were merged`);
      assert.ok(merged >= 200, `only ${merged} cases`);
    });
  }

  test('a user change on the lines the edit changes is a conflict, never a wrong file', () => {
    const notConflict: string[] = [];
    for (const { testCase, ours, original, span } of planned) {
      // The first line the edit replaced (or, for a pure insertion, the line it was inserted before or after).
      const at = span.end > span.start ? span.start : Math.min(span.start, original.length - 1);
      const lines = [...original];
      lines[at] = `${lines[at]} // the user's own change ${testCase.id}`;
      const result = mergeThreeWay(testCase.original, ours, encodeLike(lines, testCase.original, false));
      if (result.kind !== 'conflict') notConflict.push(`${testCase.id}: ${result.kind}`);
      else {
        assert.equal(result.resolve('ours'), ours, `${testCase.id}: taking the model's side gives its edit`);
      }
    }
    assert.deepEqual(notConflict, []);
  });

  test('the same change made by the user and the model is no conflict', () => {
    for (const { testCase, ours } of planned) {
      const result = mergeThreeWay(testCase.original, ours, ours);
      assert.deepEqual(result, { kind: 'clean', text: ours }, testCase.id);
    }
  });
});
