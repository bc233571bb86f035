// The built-in search (used when no ripgrep is on the machine) must give the model exactly what
// ripgrep gives: each case builds one tree and compares search_files' output with rg and without.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import { findExecutable } from '../../../src/core/search/find-executable.js';
import { searchFilesTool } from '../../../src/core/tools/search-files.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

describe('search_files without ripgrep gives what ripgrep gives', () => {
  let rg: string;
  let ws: TempWorkspace;
  let harness: ToolHarness;
  before(async () => {
    const found = await findExecutable('rg');
    assert.ok(found, 'ripgrep (rg) is not on PATH; the comparison needs the real binary');
    rg = found;
  });
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
  });
  afterEach(() => ws.dispose());

  /** Runs the same call with ripgrep and with the built-in search; returns the (equal) outcome. */
  async function both(params: Record<string, string>): Promise<ToolOutcome> {
    harness.ripgrep = rg;
    const withRg = await harness.run(searchFilesTool, params);
    harness.ripgrep = undefined;
    const builtIn = await harness.run(searchFilesTool, params);
    assert.deepEqual(builtIn, withRg, `built-in search differs from ripgrep for ${JSON.stringify(params)}`);
    return builtIn;
  }

  function text(outcome: ToolOutcome): string {
    assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
    return outcome.kind === 'result' ? outcome.output : '';
  }

  test('context lines, gaps, merged context, order of paths (folders and files by byte order)', async () => {
    ws.write('src/a.ts', ['one', 'two', 'needle here', 'four', 'needle close', 'six', 'seven', 'eight', 'nine', 'needle again', 'eleven'].join('\n'));
    ws.write('src/B.ts', 'needle first\nsecond\n');
    ws.write('src/a-b/x.ts', 'needle\n');
    ws.write('src/a/y.ts', 'x\nneedle\n');
    ws.write('src/a.b', 'needle');
    ws.write('Z.md', 'needle\n');
    ws.write('_under.md', 'needle\n');
    const out = text(await both({ path: '.', regex: 'needle' }));
    assert.match(out, /^Found 9 results\./);
    assert.match(
      out,
      /src\/a\.ts\n 2 \| two\n 3 \| needle here\n 4 \| four\n 5 \| needle close\n 6 \| six\n----\n 9 \| nine\n10 \| needle again\n11 \| eleven/,
    );
    await both({ path: 'src', regex: 'needle' });
    await both({ path: 'src/a.ts', regex: 'needle' });
  });

  test('ignore files (root, nested, anchored, negated, .ignore, .rgignore, .git/info/exclude), .smithignore, always-skipped folders, hidden files', async () => {
    ws.write('.gitignore', 'dist/\n*.log\n/top-only.txt\n!keep.log\n');
    ws.write('.git/info/exclude', 'excluded.txt\n');
    ws.write('.git/config', 'needle\n');
    ws.write('pkg/.gitignore', 'generated/\n/local.txt\n');
    ws.write('pkg/.ignore', 'by-dot-ignore.txt\n');
    ws.write('pkg/.rgignore', 'by-rgignore.txt\n');
    for (const file of [
      'dist/a.js',
      'x.log',
      'keep.log',
      'top-only.txt',
      'sub/top-only.txt',
      'excluded.txt',
      'pkg/generated/g.ts',
      'pkg/local.txt',
      'pkg/deeper/local.txt',
      'pkg/by-dot-ignore.txt',
      'pkg/by-rgignore.txt',
      'node_modules/m/index.js',
      'pkg/node_modules/n.js',
      '.venv/v.py',
      '__pycache__/c.pyc',
      '.hidden/h.txt',
      '.env',
      'secrets/s.txt',
      'ok.txt',
    ]) {
      ws.write(file, 'needle\n');
    }
    ws.write('.smithignore', 'secrets/\n');
    harness.ignore = await loadSmithIgnore(ws.root);
    const out = text(await both({ path: '.', regex: 'needle' }));
    for (const shown of ['keep.log', 'sub/top-only.txt', 'pkg/deeper/local.txt', '.hidden/h.txt', '.env', 'ok.txt'])
      assert.match(out, new RegExp(`\\n${shown.replace(/\./g, '\\.')}\\n`), `${shown} is searched`);
    for (const hidden of [
      'dist/',
      'x.log',
      '\ntop-only',
      'excluded',
      'generated',
      '\npkg/local',
      'by-dot',
      'by-rg',
      'node_modules',
      '.venv',
      '__pycache__',
      'secrets',
      '.git/',
    ])
      assert.ok(!out.includes(hidden), `${hidden} is not searched:\n${out}`);
    await both({ path: 'pkg', regex: 'needle' });
    await both({ path: 'pkg/deeper', regex: 'needle' });
    await both({ path: 'node_modules', regex: 'needle' });
  });

  test('file_pattern by name, with braces, and with a folder', async () => {
    for (const file of ['src/a.ts', 'src/b.tsx', 'src/c.js', 'lib/d.ts', 'ignored/e.ts']) ws.write(file, 'needle\n');
    ws.write('.gitignore', 'ignored/\n');
    assert.match(text(await both({ path: '.', regex: 'needle', file_pattern: '*.ts' })), /Found 2 results/);
    assert.match(text(await both({ path: '.', regex: 'needle', file_pattern: '*.{ts,tsx}' })), /Found 3 results/);
    assert.match(text(await both({ path: '.', regex: 'needle', file_pattern: 'src/*.ts' })), /Found 1 result\./);
  });

  test('the 300-match cap across files, and the context of the first match not shown is dropped', async () => {
    for (let f = 0; f < 4; f++) ws.write(`f${f}.txt`, Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? `hit ${i}` : `line ${i}`)).join('\n'));
    ws.write('g.txt', Array.from({ length: 400 }, (_, i) => `hit ${i}`).join('\n'));
    const out = text(await both({ path: '.', regex: 'hit' }));
    assert.match(out, /^Found more than 300 results; showing the first 300\./);
  });

  test('long lines, CRLF, Unicode, an empty last line, a binary file, a file and a folder link', async () => {
    ws.write('min.js', `${'é'.repeat(3000)}NEEDLE${'b'.repeat(5000)}\n`);
    ws.write('crlf.txt', 'a\r\nNEEDLE\r\nc\r\n');
    ws.write('unicode.txt', 'ünïcödé NEEDLE ✓\n日本語 NEEDLE\n');
    ws.write('noeol.txt', 'x\nNEEDLE');
    writeFileSync(join(ws.root, 'binary.bin'), Buffer.from('NEEDLE\0\x01\x02NEEDLE\n'));
    ws.write('real/r.txt', 'NEEDLE\n');
    symlinkSync(join(ws.root, 'real'), join(ws.root, 'folder-link'));
    symlinkSync(join(ws.root, 'real/r.txt'), join(ws.root, 'file-link.txt'));
    const out = text(await both({ path: '.', regex: 'NEEDLE' }));
    assert.match(out, /…\[line truncated\]/);
    assert.ok(!out.includes('binary.bin') && !out.includes('link'), out);
  });

  test('Rust regex spellings: classes, (?i), \\b, \\pL, [[:digit:]], escaped punctuation, alternation, anchors', async () => {
    ws.write('a.txt', 'Foo bar\nfoo-bar 42\nxfoo\n#tag & more\nΩmega\nend\n');
    for (const regex of [
      '(?i)foo',
      'foo\\b',
      '\\bfoo',
      '^foo',
      'bar$',
      '\\pL+mega',
      '[[:digit:]]+',
      '\\#tag \\&',
      'foo\\-bar',
      'Foo|end',
      '\\d{2}',
      '(?P<word>\\w+)-bar',
      '[^a-z ]+',
      '\\Afoo',
      'end\\z',
      '',
    ]) {
      await both({ path: '.', regex });
    }
  });

  test("a regex ripgrep refuses is refused as the model's mistake, with the same reason", async () => {
    ws.write('a.txt', 'x\n');
    for (const regex of ['foo(?=bar)', '(?<!a)b', '(a)\\1', 'a\\nb', '(unclosed', '[z-a]']) {
      harness.ripgrep = rg;
      const withRg = await harness.run(searchFilesTool, { path: '.', regex });
      harness.ripgrep = undefined;
      const builtIn = await harness.run(searchFilesTool, { path: '.', regex });
      assert.ok(withRg.kind === 'error' && withRg.mistake, `rg refuses ${regex}`);
      assert.ok(builtIn.kind === 'error' && builtIn.mistake, `the built-in search refuses ${regex}: ${JSON.stringify(builtIn)}`);
      assert.match(builtIn.error, /^search_files could not use your regex or file_pattern:\nregex parse error:/);
    }
    for (const [regex, reason] of [
      ['foo(?=bar)', /look-around/],
      ['(a)\\1', /backreferences are not supported/],
      ['a\\nb', /not allowed in a regex/],
    ] as const) {
      const builtIn = await harness.run(searchFilesTool, { path: '.', regex });
      assert.ok(builtIn.kind === 'error' && reason.test(builtIn.error), `${regex}: ${JSON.stringify(builtIn)}`);
    }
  });

  test("outside the workspace: absolute paths, the folder's own .gitignore", async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'smith-outside-')));
    try {
      writeFileSync(join(outside, '.gitignore'), 'skip.txt\n');
      writeFileSync(join(outside, 'skip.txt'), 'needle\n');
      writeFileSync(join(outside, 'found.txt'), 'needle\n');
      harness.answers = [{ approved: true }, { approved: true }];
      const out = text(await both({ path: outside, regex: 'needle' }));
      assert.match(out, new RegExp(`${outside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/found\\.txt`));
      assert.ok(!out.includes('skip.txt'));
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('an aborted search stops with the abort reason', async () => {
    ws.write('a.txt', 'x\n');
    harness.ripgrep = undefined;
    const aborted = new AbortController();
    aborted.abort(new Error('stopped by the user'));
    await assert.rejects(harness.run(searchFilesTool, { path: '.', regex: 'x' }, aborted.signal), /stopped by the user/);
  });
});
