import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadRules } from '../../../src/core/rules/rules-loader.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
let home: string;
beforeEach(() => {
  ws = createTempWorkspace('smith-mode-rules-');
  home = mkdtempSync(join(tmpdir(), 'smith-home-'));
});
afterEach(() => {
  ws.dispose();
  rmSync(home, { recursive: true, force: true });
});
const load = (modeSlug?: string) => loadRules({ workspaceRoot: ws.root, homeDir: home, ...(modeSlug ? { modeSlug } : {}) });

describe("a mode's own rules, as Roo Code reads them", () => {
  test('.roo/rules-{slug}/ applies only in that mode, its files in sorted order', () => {
    ws.write('.roo/rules-docs-writer/02-format.md', 'second docs rule');
    ws.write('.roo/rules-docs-writer/01-style.txt', 'first docs rule');
    ws.write('.roo/rules-docs-writer/nested/03-more.md', 'third docs rule');
    const docs = load('docs-writer');
    assert.deepEqual(docs.sources, ['.roo/rules-docs-writer/01-style.txt', '.roo/rules-docs-writer/02-format.md', '.roo/rules-docs-writer/nested/03-more.md']);
    assert.ok(docs.section.indexOf('first docs rule') < docs.section.indexOf('second docs rule'));
    for (const other of ['code', 'docs', undefined]) assert.doesNotMatch(load(other).section, /docs rule/, String(other));
  });

  test('.roorules-{slug} applies where the folder holds no file, and .clinerules-{slug} where neither does', () => {
    ws.write('.clinerules-review', 'cline review rule');
    assert.deepEqual(load('review').sources, ['.clinerules-review']);
    ws.write('.roorules-review', 'roo review rule');
    assert.deepEqual(load('review').sources, ['.roorules-review']);
    ws.write('.roo/rules-review/a.md', 'folder review rule');
    assert.deepEqual(load('review').sources, ['.roo/rules-review/a.md']);
    assert.deepEqual(load('code').sources, []);
  });

  test('.roorules is the fallback of .roo/rules/ for every mode', () => {
    ws.write('.roorules', 'single roo rule');
    assert.deepEqual(load('code').sources, ['.roorules']);
    ws.write('.roo/rules/a.md', 'folder roo rule');
    assert.deepEqual(load('code').sources, ['.roo/rules/a.md']);
  });

  test('a mode rules file that links out of the workspace is not read, as for every rules file', () => {
    const outside = mkdtempSync(join(tmpdir(), 'smith-outside-'));
    try {
      writeFileSync(join(outside, 'secret.md'), 'OUTSIDE-SECRET');
      symlinkSync(join(outside, 'secret.md'), join(ws.root, '.roorules-review'));
      const rules = load('review');
      assert.doesNotMatch(rules.section, /OUTSIDE-SECRET/);
      assert.match(rules.notes.join('\n'), /\.roorules-review: links outside the workspace/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
