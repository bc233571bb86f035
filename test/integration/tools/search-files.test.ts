import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import { findExecutable } from '../../../src/core/search/find-executable.js';
import { searchWithRipgrep } from '../../../src/core/search/ripgrep.js';
import { searchFilesTool } from '../../../src/core/tools/search-files.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

async function requireRipgrep(): Promise<string> {
  const rg = await findExecutable('rg');
  assert.ok(rg, 'ripgrep (rg) is not on PATH. These tests need the real binary: install it (apt-get install ripgrep, brew install ripgrep).');
  return rg;
}

function output(outcome: ToolOutcome): string {
  assert.equal(outcome.kind, 'result', `expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.kind === 'result' ? outcome.output : '';
}

/** The file headers of a search result, in order. */
function filesIn(text: string): string[] {
  return text.split('\n').filter((line, i, all) => line !== '' && all[i - 1] === '' && !line.startsWith('('));
}

describe('search_files', () => {
  let rg: string;
  let ws: TempWorkspace;
  let harness: ToolHarness;
  before(async () => {
    rg = await requireRipgrep();
  });
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
    harness.ripgrep = rg;
  });
  afterEach(() => ws.dispose());

  test('groups matches by file with line numbers and one line of context, gaps marked', async () => {
    ws.write('src/a.ts', ['one', 'two', 'needle here', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'needle again', 'eleven'].join('\n'));
    ws.write('src/b.ts', 'needle first\nsecond\n');
    ws.write('src/c.ts', 'nothing\n');
    const text = output(await harness.run(searchFilesTool, { path: 'src', regex: 'needle' }));
    assert.equal(
      text,
      [
        'Found 3 results.',
        '',
        'src/a.ts',
        ' 2 | two',
        ' 3 | needle here',
        ' 4 | four',
        '----',
        ' 9 | nine',
        '10 | needle again',
        '11 | eleven',
        '',
        'src/b.ts',
        '1 | needle first',
        '2 | second',
      ].join('\n'),
    );
    assert.equal(harness.asked.length, 0, 'reads inside the workspace are auto-approved');
  });

  test('says so when nothing matches', async () => {
    ws.write('a.txt', 'hello\n');
    assert.equal(output(await harness.run(searchFilesTool, { path: '.', regex: 'absent' })), 'Found 0 results.');
  });

  test('skips .gitignore (root, nested, anchored from a subfolder), .smithignore, node_modules and .git', async () => {
    ws.write('.gitignore', 'dist/\n*.log\n/src/generated.ts\n');
    ws.write('src/.gitignore', 'local/\n');
    ws.write('.smithignore', 'secrets/\n');
    const files = [
      'dist/out.js',
      'app.log',
      'src/generated.ts',
      'src/local/l.ts',
      'src/main.ts',
      'secrets/key.txt',
      'node_modules/x/i.js',
      '.git/config',
      '.github/ci.yml',
    ];
    for (const f of files) ws.write(f, 'token\n');
    harness.ignore = await loadSmithIgnore(ws.root);
    assert.deepEqual(filesIn(output(await harness.run(searchFilesTool, { path: '.', regex: 'token' }))), ['.github/ci.yml', 'src/main.ts']);
    assert.deepEqual(filesIn(output(await harness.run(searchFilesTool, { path: 'src', regex: 'token' }))), ['src/main.ts']);
    const refused = await harness.run(searchFilesTool, { path: 'secrets', regex: 'token' });
    assert.ok(refused.kind === 'error' && refused.mistake && /secrets is ignored by \.smithignore/.test(refused.error));
  });

  test('file_pattern limits the files by name or path, and never brings back ignored ones', async () => {
    ws.write('.gitignore', '*.gen.ts\n');
    for (const f of ['a.ts', 'b.tsx', 'c.md', 'x.gen.ts', 'src/d.ts', 'src/e.md', 'lib/f.ts']) ws.write(f, 'hit\n');
    const search = async (pattern: string) => filesIn(output(await harness.run(searchFilesTool, { path: '.', regex: 'hit', file_pattern: pattern })));
    assert.deepEqual(await search('*.ts'), ['a.ts', 'lib/f.ts', 'src/d.ts']);
    assert.deepEqual(await search('*.{ts,md}'), ['a.ts', 'c.md', 'lib/f.ts', 'src/d.ts', 'src/e.md']);
    assert.deepEqual(await search('src/*.ts'), ['src/d.ts']);
    assert.deepEqual(await search('**/*.gen.ts'), []);
  });

  test(`stops at 300 matches and says how to narrow the search`, async () => {
    ws.write('many.txt', Array.from({ length: 400 }, (_, i) => `match ${i}`).join('\n'));
    const text = output(await harness.run(searchFilesTool, { path: '.', regex: '^match' }));
    const lines = text.split('\n');
    assert.equal(lines[0], 'Found more than 300 results; showing the first 300.');
    assert.equal(lines.filter((l) => / \| match /.test(l)).length, 300);
    assert.equal(lines.at(-2), '');
    assert.match(lines.at(-3)!, /^300 \| match 299$/);
    assert.match(lines.at(-1)!, /^\(Results cut short\. Use a more specific regex, path or file_pattern/);
  });

  test('at the cap, drops the context that belongs to the first match not shown', async () => {
    ws.write('a.txt', 'hit 1\nctx\nctx\nctx\nhit 5\nctx\nctx\nctx\nhit 9\n');
    ws.write('b.txt', 'ctx\nhit 2\n');
    const search = (maxMatches: number) =>
      searchWithRipgrep({ rgPath: rg, cwd: ws.root, target: '.', regex: 'hit', maxMatches, signal: new AbortController().signal });
    const two = await search(2);
    assert.deepEqual(
      two.groups.map((g) => [g.path, g.lines.map((l) => `${l.line}${l.isMatch ? '*' : ''}`)]),
      [['a.txt', ['1*', '2', '4', '5*', '6']]],
    );
    assert.deepEqual([two.matchCount, two.truncated], [2, true]);
    const three = await search(3);
    assert.deepEqual(
      three.groups.map((g) => g.path),
      ['a.txt'],
      'a file with only context lines is dropped',
    );
    const four = await search(4);
    assert.deepEqual([four.matchCount, four.truncated, four.groups.length], [4, false, 2]);
  });

  test("reports an invalid regex as the model's mistake, with ripgrep's explanation", async () => {
    ws.write('a.txt', 'x\n');
    const unclosed = await harness.run(searchFilesTool, { path: '.', regex: 'foo(' });
    assert.ok(unclosed.kind === 'error' && unclosed.mistake, JSON.stringify(unclosed));
    assert.match(unclosed.error, /regex parse error[\s\S]*unclosed group/);
    const lookaround = await harness.run(searchFilesTool, { path: '.', regex: '(?=x)' });
    assert.ok(lookaround.kind === 'error' && lookaround.mistake);
    assert.match(lookaround.error, /look-around/);
    assert.doesNotMatch(lookaround.error, /--pcre2/);
  });

  test('treats a regex starting with a dash as a regex, not a flag', async () => {
    ws.write('a.txt', 'x --verbose y\n');
    assert.match(output(await harness.run(searchFilesTool, { path: '.', regex: '--verbose' })), /1 \| x --verbose y/);
  });

  test('cuts very long lines to a window around the match', async () => {
    ws.write('min.js', `${'a'.repeat(5000)}NEEDLE${'b'.repeat(5000)}\n`);
    const line = output(await harness.run(searchFilesTool, { path: '.', regex: 'NEEDLE' })).split('\n')[3]!;
    assert.ok(line.length < 400, `line is ${line.length} characters`);
    assert.match(line, /^1 \| …a+NEEDLEb+ …\[line truncated\]$/);
  });

  test('without ripgrep, searches all the same (the built-in search; search-built-in.test.ts compares the two)', async () => {
    ws.write('a.txt', 'one\nx marks\nthree\n');
    harness.ripgrep = undefined;
    assert.equal(output(await harness.run(searchFilesTool, { path: '.', regex: 'x' })), 'Found 1 result.\n\na.txt\n1 | one\n2 | x marks\n3 | three');
  });

  test('reports a ripgrep that cannot be started as a failure, not a mistake', async () => {
    ws.write('a.txt', 'x\n');
    harness.ripgrep = join(ws.root, 'no-such-rg');
    const outcome = await harness.run(searchFilesTool, { path: '.', regex: 'x' });
    assert.ok(outcome.kind === 'error' && !outcome.mistake, JSON.stringify(outcome));
    assert.match(outcome.error, /^search_files failed: Could not run ripgrep at .*no-such-rg/);
  });

  test('asks before searching outside the workspace, and shows absolute paths there', async () => {
    const outside = createTempWorkspace('smith-outside-');
    try {
      outside.write('notes.txt', 'secret token\n');
      symlinkSync(outside.root, join(ws.root, 'link'));
      harness.answers = [{ approved: false, feedback: 'no' }, { approved: false }, { approved: true }];
      assert.deepEqual(await harness.run(searchFilesTool, { path: '../..', regex: 'token' }), { kind: 'rejected', feedback: 'no' });
      assert.equal((await harness.run(searchFilesTool, { path: outside.root, regex: 'token' })).kind, 'rejected');
      const viaLink = output(await harness.run(searchFilesTool, { path: 'link', regex: 'token' }));
      assert.deepEqual(filesIn(viaLink), [join(outside.root, 'notes.txt')]);
      assert.equal(harness.asked.length, 3);
    } finally {
      outside.dispose();
    }
  });

  test('reports a path that does not exist', async () => {
    const outcome = await harness.run(searchFilesTool, { path: 'nope', regex: 'x' });
    assert.ok(outcome.kind === 'error' && outcome.mistake && /Path not found: nope/.test(outcome.error));
  });

  test('searches a single file', async () => {
    ws.write('src/a.ts', 'alpha\nbeta\n');
    assert.equal(output(await harness.run(searchFilesTool, { path: 'src/a.ts', regex: 'beta' })), 'Found 1 result.\n\nsrc/a.ts\n1 | alpha\n2 | beta');
  });

  test('stops ripgrep when the task is aborted', async () => {
    // rg blocks reading a FIFO nobody writes to, so only the abort can end this search.
    execFileSync('mkfifo', [join(ws.root, 'pipe')]);
    const controller = new AbortController();
    const started = Date.now();
    const search = harness.run(searchFilesTool, { path: 'pipe', regex: 'x' }, controller.signal);
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(search, { name: 'AbortError' });
    assert.ok(Date.now() - started < 5000);
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(searchWithRipgrep({ rgPath: rg, cwd: ws.root, target: '.', regex: 'x', signal: aborted.signal }), { name: 'AbortError' });
  });
});

describe('findExecutable', () => {
  test('finds rg on PATH and nothing for an unknown name', async () => {
    const rg = await requireRipgrep();
    assert.match(rg, /rg(\.exe)?$/);
    assert.equal(await findExecutable('smith-no-such-program-xyz'), undefined);
  });

  test('scans the given PATH in order and skips files that are not executable', async () => {
    const ws = createTempWorkspace();
    try {
      const plain = ws.write('one/tool', 'not executable');
      const runnable = ws.write('two/tool', '#!/bin/sh\n');
      chmodSync(plain, 0o644);
      chmodSync(runnable, 0o755);
      const env = { PATH: ['', join(ws.root, 'missing'), join(ws.root, 'one'), join(ws.root, 'two')].join(':') };
      assert.equal(await findExecutable('tool', env), runnable);
      assert.equal(await findExecutable('tool', { PATH: join(ws.root, 'one') }), undefined);
      assert.equal(await findExecutable(runnable, {}), runnable);
    } finally {
      ws.dispose();
    }
  });
});
