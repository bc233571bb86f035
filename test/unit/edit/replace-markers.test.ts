// Marker lines never reach the file: Roo's hints and separator inside a REPLACE part are refused;
// content that only resembles them (YAML, Markdown rules, escaped lines) is kept.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseDiffBlocks } from '../../../src/core/edit/diff-blocks.js';
import { applyFails, applyOk, clineBlock, lines, rooBlock } from './edit-test-helpers.js';

const FILE = lines('alpha', 'beta', 'gamma', '');

describe('marker lines inside REPLACE are refused', () => {
  const markers = [':start_line:2', ':start_line: 14', ':end_line:3', '-------', '----------', '  -------  '];
  for (const marker of markers) {
    for (const [dialect, block] of [
      ['Cline', clineBlock('beta', lines(marker, 'BETA'))],
      ['Roo', rooBlock('beta', lines('BETA', marker))],
    ] as const) {
      test(`${JSON.stringify(marker)} in a ${dialect} REPLACE part`, () => {
        const failure = applyFails(FILE, block);
        assert.match(failure.error, /The diff is malformed/);
        assert.ok(failure.error.includes(`("${marker.trim()}")`), failure.error);
        assert.match(failure.error, /REPLACE part/);
        assert.match(failure.error, /right after <<<<<<< SEARCH/);
      });
    }
  }

  test('a second block whose SEARCH and REPLACE markers were forgotten is refused, not written', () => {
    const diff = lines(
      '<<<<<<< SEARCH',
      ':start_line:1',
      '-------',
      'alpha',
      '=======',
      'ALPHA',
      ':start_line:3',
      '-------',
      'gamma',
      '=======',
      'GAMMA',
      '>>>>>>> REPLACE',
    );
    const failure = applyFails(FILE, diff);
    assert.match(failure.error, /line 7 \(":start_line:3"\)/);
  });
});

describe('content that resembles a marker stays content', () => {
  test('YAML front matter (---) in REPLACE', () => {
    const file = lines('---', 'title: a', '---', 'Body', '');
    const result = applyOk(file, rooBlock(lines('---', 'title: a', '---'), lines('---', 'title: b', 'draft: true', '---')));
    assert.equal(result.content, lines('---', 'title: b', 'draft: true', '---', 'Body', ''));
  });

  test('Markdown rules shorter than seven dashes in REPLACE', () => {
    for (const rule of ['---', '----', '-----', '------', '***', '___']) {
      const result = applyOk(FILE, clineBlock('beta', lines('beta', '', rule, '')));
      assert.equal(result.content, lines('alpha', 'beta', '', rule, '', 'gamma', ''));
    }
  });

  test('a dash line the SEARCH part also has (copied from the file) is kept', () => {
    const file = lines('Title', '-------', '', 'Text.', '');
    const result = applyOk(file, clineBlock(lines('Title', '-------'), lines('New title', '-------')));
    assert.equal(result.content, lines('New title', '-------', '', 'Text.', ''));
  });

  test('an escaped marker line is written without its backslash', () => {
    const parsed = parseDiffBlocks(lines('------- SEARCH', 'x', '=======', '\\-------', '\\:start_line:5', '+++++++ REPLACE'));
    assert.deepEqual(parsed, { ok: true, blocks: [{ search: ['x'], replace: ['-------', ':start_line:5'] }] });
  });

  test("Roo's hint and separator right after SEARCH are still read as such", () => {
    const result = applyOk(FILE, rooBlock('gamma', 'GAMMA', 3));
    assert.equal(result.content, lines('alpha', 'beta', 'GAMMA', ''));
  });
});
