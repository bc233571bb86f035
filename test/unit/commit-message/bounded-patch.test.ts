import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boundedPatch } from '../../../src/core/commit-message/bounded-patch.js';
import { cleanCommitMessage } from '../../../src/core/commit-message/commit-message.js';

const fileDiff = (name: string, lines: number) =>
  `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -0,0 +1,${lines} @@\n${Array.from({ length: lines }, (_, i) => `+${name} ${i}`).join('\n')}\n`;

describe('boundedPatch', () => {
  test('a patch within the limit is kept whole', () => {
    const patch = fileDiff('a', 3) + fileDiff('b', 2);
    assert.deepEqual(boundedPatch(patch, { maxChars: 10_000 }), { text: patch, cut: false });
  });

  test('small files keep their whole diff, a large one its first lines and a note, within the limit', () => {
    const patch = fileDiff('big', 2000) + fileDiff('s1', 2) + fileDiff('s2', 2);
    const { text, cut } = boundedPatch(patch, { maxChars: 2000, minFileChars: 100 });
    assert.equal(cut, true);
    assert.ok(text.length <= 2000 + 200, `${text.length}`);
    assert.ok(text.includes(fileDiff('s1', 2)) && text.includes(fileDiff('s2', 2)));
    assert.match(text, /^diff --git a\/big b\/big\n[\s\S]*\+big 0\n[\s\S]*\[… \d+ more lines of this file's diff left out\]/);
  });

  test('more files than room: the later files are named in a note, never dropped silently', () => {
    const patch = Array.from({ length: 50 }, (_, i) => fileDiff(`f${i}`, 20)).join('');
    const { text } = boundedPatch(patch, { maxChars: 1000, minFileChars: 200 });
    assert.equal((text.match(/^diff --git /gm) ?? []).length, 5);
    assert.match(text, /\[… the diffs of 45 more files are left out; the file list names them\]/);
  });

  test('a read git cut short is said', () => {
    assert.match(boundedPatch(fileDiff('a', 1), {}, true).text, /longer than Smith reads/);
  });
});

describe('cleanCommitMessage', () => {
  test('removes a fence, quotes, CRs and trailing spaces; keeps the body', () => {
    assert.equal(cleanCommitMessage('```text\nFix the parser  \r\n\r\nBody line\n```'), 'Fix the parser\n\nBody line');
    assert.equal(cleanCommitMessage('"Fix the parser"'), 'Fix the parser');
    assert.equal(cleanCommitMessage('"Fix" the "parser"'), '"Fix" the "parser"');
    assert.equal(cleanCommitMessage('  \n'), '');
  });
});
