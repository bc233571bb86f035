// Ignore files come from the checkout, so their size is the checkout's to choose: each is read up
// to IGNORE_FILE_BYTES, never whole. A .smithignore (a fence) over the cap is refused with a clear
// error instead of being cut, since cutting would drop its last rules.
import assert from 'node:assert/strict';
import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ancestorIgnoreRules, IGNORE_FILE_BYTES, ignoreFileText, listWorkspaceFiles } from '../../../src/core/workspace/file-listing.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

/** An ignore file's text: `first` on line 1, comment filler past the cap, then `last`. */
const oversized = (first: string, last: string): string => `${first}\n${`# ${'x'.repeat(78)}\n`.repeat(Math.ceil(IGNORE_FILE_BYTES / 80) + 10)}${last}\n`;

describe('ignore files are read within a cap', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = createTempWorkspace();
  });
  afterEach(() => ws.dispose());

  test('a .smithignore over the cap is refused with a clear error, one within it is read', async () => {
    ws.write('.smithignore', oversized('early.txt', 'late.txt'));
    await assert.rejects(loadSmithIgnore(ws.root), /\.smithignore is larger than 1 MiB; Smith reads no larger \.smithignore/);
    ws.write('.smithignore', 'early.txt\nlate.txt\n');
    const policy = await loadSmithIgnore(ws.root);
    assert.equal(policy.isIgnored(join(ws.root, 'late.txt')), true);
  });

  test('a sparse 8 GiB .smithignore is refused without being read', async () => {
    truncateSync(ws.write('.smithignore', 'secret.txt\n'), 8 * 1024 ** 3);
    await assert.rejects(loadSmithIgnore(ws.root), /larger than 1 MiB/);
  });

  test('a .gitignore over the cap gives the rules of its first MiB, cut at a line, to the listing', async () => {
    ws.write('.gitignore', oversized('early.txt', 'late.txt'));
    ws.write('early.txt', 'e');
    ws.write('late.txt', 'l');
    ws.write('sub/keep.txt', 'k');
    const rules = await ancestorIgnoreRules(ws.root, join(ws.root, 'sub'));
    const text = rules.map((set) => set.text).join('\n');
    assert.ok(text.length <= IGNORE_FILE_BYTES, `read ${text.length} bytes`);
    assert.match(text, /^early\.txt\n/);
    assert.doesNotMatch(text, /late\.txt/);
    const listing = await listWorkspaceFiles({ root: ws.root, dir: ws.root, recursive: true, limit: 100, ignore: NOTHING_IGNORED });
    const names = listing.entries;
    assert.ok(!names.some((name) => name.endsWith('early.txt')), names.join(','));
    assert.ok(
      names.some((name) => name.endsWith('late.txt')),
      names.join(','),
    );
  });

  test('the cut is one function of the bytes, so snapshots and restores read the same rules', () => {
    const bytes = Buffer.from(oversized('a', 'b'));
    const text = ignoreFileText(bytes);
    assert.ok(text.length <= IGNORE_FILE_BYTES);
    assert.ok(text.endsWith('x'), 'cut at a line end, never inside a line');
    assert.equal(ignoreFileText(Buffer.from('a\nb\n')), 'a\nb\n');
  });
});
