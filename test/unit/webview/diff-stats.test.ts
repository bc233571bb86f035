import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { statsFromParams, statsFromSearchReplace, statsFromUnifiedDiff } from '../../../webview-ui/src/chat/diff-stats.js';

describe('diff stats', () => {
  test('unified diff: counts hunk lines, not the file headers', () => {
    const diff = '--- a/x.ts\n+++ b/x.ts\n@@ -1,3 +1,4 @@\n keep\n-old\n+new\n+added\n--- not a header inside a hunk';
    assert.deepEqual(statsFromUnifiedDiff(diff), { added: 2, removed: 2 });
  });

  test("Cline's SEARCH/REPLACE blocks count only the lines that change", () => {
    const diff = ['------- SEARCH', 'a', 'b', 'c', '=======', 'a', 'B', 'c', 'd', '+++++++ REPLACE', '', '------- SEARCH', 'x', '=======', '+++++++ REPLACE'].join('\n');
    assert.deepEqual(statsFromSearchReplace(diff), { added: 2, removed: 2 });
  });

  test("Roo Code's dialect with a start_line hint", () => {
    const diff = ['<<<<<<< SEARCH', ':start_line:10', '-------', 'old line', '=======', 'new line', '>>>>>>> REPLACE'].join('\n');
    assert.deepEqual(statsFromSearchReplace(diff), { added: 1, removed: 1 });
  });

  test('an unfinished block (still streaming) is not counted', () => {
    assert.deepEqual(statsFromSearchReplace('------- SEARCH\na\n=======\nb'), { added: 0, removed: 0 });
  });

  test('params: write_to_file counts its lines; other tools have no stats', () => {
    assert.deepEqual(statsFromParams('write_to_file', { path: 'a', content: 'x\ny\n' }), { added: 2, removed: 0 });
    assert.deepEqual(statsFromParams('write_to_file', { path: 'a', content: 'x\ny' }), { added: 2, removed: 0 });
    assert.deepEqual(statsFromParams('replace_in_file', { path: 'a', diff: '------- SEARCH\na\n=======\nb\n+++++++ REPLACE' }), { added: 1, removed: 1 });
    assert.equal(statsFromParams('read_file', { path: 'a' }), undefined);
  });
});
