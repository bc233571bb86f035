// The caps and notes of ContainedFiles, with small caps so each limit is reached by a few files.
import assert from 'node:assert/strict';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ContainedFiles, type LoaderCaps } from '../../../src/core/workspace/contained-files.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
beforeEach(() => (ws = createTempWorkspace('smith-contained-')));
afterEach(() => ws.dispose());

const files = (caps: Partial<LoaderCaps> = {}) => new ContainedFiles({ within: [ws.root], caps: { fileBytes: 100, totalBytes: 250, entries: 50, ...caps } });
const reasons = (reader: ContainedFiles) => reader.skipped.map((entry) => `${entry.path.slice(ws.root.length + 1)}: ${entry.reason}`);

describe('ContainedFiles', () => {
  test('a file over the per-file cap is cut or skipped as asked, and the cut never splits a character', () => {
    ws.write('big.md', `${'a'.repeat(99)}€€€`);
    const reader = files();
    const cut = reader.readText(join(ws.root, 'big.md'), 'cut');
    assert.equal(cut, 'a'.repeat(99));
    assert.deepEqual(reasons(reader), ['big.md: larger than 100 bytes; cut at 100 bytes']);
    const strict = files();
    assert.equal(strict.readText(join(ws.root, 'big.md'), 'skip'), undefined);
    assert.deepEqual(reasons(strict), ['big.md: larger than 100 bytes; skipped']);
  });

  test('files past the total are skipped with a note; the ones before are read whole', () => {
    for (const name of ['a', 'b', 'c']) ws.write(`${name}.md`, name.repeat(90));
    const reader = files();
    assert.equal(reader.readText(join(ws.root, 'a.md'), 'cut'), 'a'.repeat(90));
    assert.equal(reader.readText(join(ws.root, 'b.md'), 'cut'), 'b'.repeat(90));
    assert.equal(reader.readText(join(ws.root, 'c.md'), 'cut'), undefined);
    assert.deepEqual(reasons(reader), ['c.md: past the 250 bytes these files may total; skipped']);
  });

  test('invalid UTF-8 reads with U+FFFD and a note', () => {
    ws.write('bad.md', Buffer.from([0x6f, 0x6b, 0xff, 0x0a]));
    const reader = files();
    assert.equal(reader.readText(join(ws.root, 'bad.md'), 'cut'), 'ok\uFFFD\n');
    assert.deepEqual(reasons(reader), ['bad.md: not valid UTF-8; the invalid bytes read as \uFFFD']);
  });

  test('a listing stops at the entry cap with a note, and a folder linked back into itself is listed once', () => {
    for (let i = 0; i < 80; i++) ws.write(`many/f${String(i).padStart(2, '0')}.md`, 'x');
    const reader = files();
    const listed = reader.listFiles(join(ws.root, 'many'), { recursive: true, match: (rel) => rel.endsWith('.md') });
    assert.equal(listed.length, 50);
    assert.deepEqual(reasons(reader), ['many: more than 50 entries; the rest are not read']);

    ws.write('loop/rule.md', 'x');
    symlinkSync('.', join(ws.root, 'loop', 'self'));
    symlinkSync('..', join(ws.root, 'loop', 'parent-of-self'));
    const again = files({ entries: 1000 });
    const rules = again.listFiles(join(ws.root, 'loop'), { recursive: true, match: (rel) => rel === 'rule.md' || rel.endsWith('/rule.md') });
    assert.deepEqual(
      rules.map((file) => file.rel),
      ['rule.md'],
    );
  });

  test('a missing entry is quiet; one below a folder link that leads out is noted', () => {
    const reader = files();
    assert.equal(reader.readText(join(ws.root, 'nothing.md'), 'cut'), undefined);
    assert.deepEqual(reader.skipped, []);
    symlinkSync('/', join(ws.root, '.cursor'));
    assert.equal(reader.present(join(ws.root, '.cursor', 'no-such-rules')), false);
    assert.equal(reader.isFolder(join(ws.root, '.cursor', 'etc')), false);
    assert.deepEqual(reasons(reader), ['.cursor: links outside the workspace; not read', '.cursor/etc: links outside the workspace; not read']);
  });

  test("the user's own folders are read wherever their links point", () => {
    const outside = createTempWorkspace('smith-user-');
    try {
      outside.write('rules/mine.md', 'my rule');
      writeFileSync(join(ws.root, 'plain.md'), 'x');
      symlinkSync(join(outside.root, 'rules'), join(ws.root, 'user-rules'));
      const reader = new ContainedFiles({ within: [ws.root], trusted: [join(ws.root, 'user-rules')], caps: { fileBytes: 100, totalBytes: 250, entries: 50 } });
      assert.equal(reader.readText(join(ws.root, 'user-rules', 'mine.md'), 'cut'), 'my rule');
      assert.deepEqual(reader.skipped, []);
    } finally {
      outside.dispose();
    }
  });
});
