import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import { findExecutable } from '../../../src/core/search/find-executable.js';
import { searchWithRipgrep } from '../../../src/core/search/ripgrep.js';
import { ancestorIgnoreRules, compareEntries, formatListing, listWorkspaceFiles, rulesRelativeToRoot } from '../../../src/core/workspace/file-listing.js';
import { NOTHING_IGNORED, type IgnorePolicy } from '../../../src/core/workspace/ignore-policy.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

/** A workspace exercising every kind of ignore rule; every file holds the line "x". */
function writeRuleFixture(ws: TempWorkspace): void {
  const files = [
    'README.md',
    '.hidden',
    '.github/workflows/ci.yml',
    'a.log',
    'build/a.js',
    'build/b.log',
    'top-only.txt',
    'src/top-only.txt',
    'excluded.txt',
    'src/excluded.txt',
    'src/y.ts',
    'src/x.generated.ts',
    'src/gen/z.ts',
    'src/gen/w.ts',
    'src/deep/er/keep.md',
    'src/deep/secret2.ts',
    'src/deep/secret3.ts',
    'src/dot-ignored.txt',
    'node_modules/m/index.js',
    'src/node_modules/n/index.js',
    '.git/config',
    'private/key.txt',
  ];
  for (const file of files) ws.write(file, 'x\n');
  ws.write('.gitignore', 'build/\n*.log\nsrc/*.generated.ts\nsecret*\n/top-only.txt\n');
  ws.write('.ignore', 'dot-ignored.txt\n');
  ws.write('.git/info/exclude', 'excluded.txt\n');
  ws.write('src/.gitignore', 'keep.md\n');
  ws.write('src/gen/.gitignore', '*.ts\n!z.ts\n');
  ws.write('src/deep/.gitignore', '!secret2.ts\n');
  ws.write('.smithignore', 'private/\n');
}

async function requireRipgrep(): Promise<string> {
  const rg = await findExecutable('rg');
  assert.ok(rg, 'ripgrep (rg) is not on PATH. These tests need the real binary: install it (apt-get install ripgrep, brew install ripgrep).');
  return rg;
}

describe('listWorkspaceFiles', () => {
  let ws: TempWorkspace;
  let rg: string;
  before(async () => {
    rg = await requireRipgrep();
  });
  beforeEach(() => {
    ws = createTempWorkspace();
  });
  afterEach(() => ws.dispose());

  const list = (dir: string, recursive: boolean, limit = 1000, ignore: IgnorePolicy = NOTHING_IGNORED) =>
    listWorkspaceFiles({ root: ws.root, dir: join(ws.root, dir), recursive, limit, ignore });

  test('lists one level, folders first with a trailing slash, in natural name order', async () => {
    for (const f of ['b.txt', 'A.txt', 'file10.txt', 'file2.txt', 'zeta/inner.txt', 'alpha/inner.txt']) ws.write(f, 'x');
    mkdirSync(join(ws.root, 'empty'));
    const result = await list('.', false);
    assert.deepEqual(result, { entries: ['alpha/', 'empty/', 'zeta/', 'A.txt', 'b.txt', 'file2.txt', 'file10.txt'], truncated: false });
  });

  test('lists recursively as a tree, honouring nested ignore files, .git/info/exclude and skipped folders', async () => {
    writeRuleFixture(ws);
    const policy = await loadSmithIgnore(ws.root);
    const result = await list('.', true, 1000, policy);
    assert.deepEqual(result.entries, [
      '.github/',
      '.github/workflows/',
      '.github/workflows/ci.yml',
      'src/',
      'src/deep/',
      'src/deep/er/',
      'src/deep/.gitignore',
      'src/deep/secret2.ts',
      'src/gen/',
      'src/gen/.gitignore',
      'src/gen/z.ts',
      'src/.gitignore',
      'src/top-only.txt',
      'src/y.ts',
      '.gitignore',
      '.hidden',
      '.ignore',
      'README.md',
    ]);
  });

  test('lists an ignored folder named explicitly, judged by the rules that do not exclude it', async () => {
    writeRuleFixture(ws);
    assert.deepEqual((await list('build', true)).entries, ['build/a.js', 'build/b.log']);
    assert.deepEqual((await list('node_modules', true)).entries, ['node_modules/m/', 'node_modules/m/index.js']);
    assert.deepEqual((await list('src/deep', false)).entries, ['src/deep/er/', 'src/deep/.gitignore', 'src/deep/secret2.ts']);
  });

  test('walks breadth-first, so a cut keeps the top levels, and says when it cut', async () => {
    for (let i = 0; i < 30; i++) ws.write(`deep/${String(i).padStart(2, '0')}.txt`, 'x');
    ws.write('top1.txt', 'x');
    ws.write('top2.txt', 'x');
    const cut = await list('.', true, 10);
    assert.equal(cut.truncated, true);
    assert.equal(cut.entries.length, 10);
    assert.deepEqual(cut.entries.slice(0, 2), ['deep/', 'deep/00.txt']);
    assert.deepEqual(cut.entries.slice(-2), ['top1.txt', 'top2.txt']);
    assert.match(formatListing(cut), /\n\n\(File list truncated at 10 entries\. Use list_files on a subfolder to see more\.\)$/);
    const exact = await list('.', true, 33);
    assert.deepEqual([exact.entries.length, exact.truncated], [33, false]);
  });

  test('shows symbolic links without following them', async () => {
    ws.write('real/inside.txt', 'x');
    symlinkSync(join(ws.root, 'real'), join(ws.root, 'loop'));
    symlinkSync(join(ws.root, 'real', 'inside.txt'), join(ws.root, 'alias.txt'));
    assert.deepEqual((await list('.', true)).entries, ['loop/', 'real/', 'real/inside.txt', 'alias.txt']);
  });

  test('formats an empty folder clearly', async () => {
    assert.equal(formatListing(await list('.', true)), 'No files found.');
  });

  test('sees exactly the files that the ripgrep search sees', async () => {
    writeRuleFixture(ws);
    const policy = await loadSmithIgnore(ws.root);
    for (const dir of ['.', 'src', 'src/deep', 'src/gen', 'build', 'node_modules']) {
      const listing = await list(dir, true, 100_000, policy);
      const listed = listing.entries.filter((e) => !e.endsWith('/'));
      const extraIgnoreRules = rulesRelativeToRoot(await ancestorIgnoreRules(ws.root, join(ws.root, dir)));
      const found = await searchWithRipgrep({
        rgPath: rg,
        cwd: ws.root,
        target: dir,
        regex: '^',
        maxMatches: 100_000,
        ...(extraIgnoreRules ? { extraIgnoreRules } : {}),
        include: (path) => !policy.isIgnored(join(ws.root, path)),
        signal: new AbortController().signal,
      });
      const searched = found.groups.map((g) => g.path);
      assert.deepEqual([...searched].sort(compareEntries), listed, `listing and search disagree on ${dir}`);
    }
  });
});

describe('rulesRelativeToRoot', () => {
  test('rebases nested rules: anchored ones to their folder, the rest to any depth below it', async () => {
    const ws = createTempWorkspace();
    try {
      ws.write('.gitignore', '*.log\n');
      ws.write('a/.gitignore', '# comment\n\nbuild/\n/dist\nsrc/*.gen.ts\n!keep.log\n');
      ws.write('a/b/.gitignore', 'never-read-for-a/b\n');
      const rules = rulesRelativeToRoot(await ancestorIgnoreRules(ws.root, join(ws.root, 'a', 'b')));
      assert.equal(rules, '*.log\na/**/build/\na/dist\na/src/*.gen.ts\n!a/**/keep.log');
    } finally {
      ws.dispose();
    }
  });
});
