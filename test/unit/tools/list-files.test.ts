import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { LIST_FILES_LIMIT, listFilesTool } from '../../../src/core/tools/list-files.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

function output(outcome: ToolOutcome): string {
  assert.equal(outcome.kind, 'result', `expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.kind === 'result' ? outcome.output : '';
}

function mistakeText(outcome: ToolOutcome): string {
  assert.ok(outcome.kind === 'error' && outcome.mistake, `expected a mistake, got ${JSON.stringify(outcome)}`);
  return outcome.kind === 'error' ? outcome.error : '';
}

describe('list_files', () => {
  let ws: TempWorkspace;
  let harness: ToolHarness;
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
  });
  afterEach(() => ws.dispose());

  test('lists the top level without asking (reads are auto-approved)', async () => {
    ws.write('src/main.ts', 'x');
    ws.write('README.md', 'x');
    const outcome = await harness.run(listFilesTool, { path: '.' });
    assert.equal(output(outcome), 'src/\nREADME.md');
    assert.equal(harness.asked.length, 0);
  });

  test('lists a subfolder recursively with workspace-relative paths', async () => {
    ws.write('src/a.ts', 'x');
    ws.write('src/lib/b.ts', 'x');
    ws.write('other.txt', 'x');
    assert.equal(output(await harness.run(listFilesTool, { path: 'src', recursive: 'true' })), 'src/lib/\nsrc/lib/b.ts\nsrc/a.ts');
    assert.equal(output(await harness.run(listFilesTool, { path: 'src/', recursive: ' False ' })), 'src/lib/\nsrc/a.ts');
  });

  test('leaves out .gitignore (root and nested), .smithignore, node_modules and .git', async () => {
    ws.write('.gitignore', 'dist/\n*.log\n');
    ws.write('pkg/.gitignore', 'generated/\n');
    ws.write('.smithignore', 'secrets/\n');
    for (const f of ['dist/out.js', 'app.log', 'pkg/generated/g.ts', 'pkg/index.ts', 'secrets/key.pem', 'node_modules/x/i.js', '.git/HEAD', 'main.ts']) {
      ws.write(f, 'x');
    }
    harness.ignore = await loadSmithIgnore(ws.root);
    const text = output(await harness.run(listFilesTool, { path: '.', recursive: 'true' }));
    assert.equal(text, 'pkg/\npkg/.gitignore\npkg/index.ts\n.gitignore\nmain.ts');
  });

  test('refuses a path in .smithignore, telling the model why', async () => {
    ws.write('.smithignore', 'secrets/\n');
    ws.write('secrets/key.pem', 'x');
    harness.ignore = await loadSmithIgnore(ws.root);
    const error = mistakeText(await harness.run(listFilesTool, { path: 'secrets' }));
    assert.match(error, /secrets is ignored by \.smithignore/);
  });

  test(`stops at ${LIST_FILES_LIMIT} entries with a note, top levels first`, async () => {
    ws.write('a-top.txt', 'x');
    for (let i = 0; i < 250; i++) ws.write(`many/f${i}.txt`, 'x');
    const text = output(await harness.run(listFilesTool, { path: '.', recursive: 'true' }));
    const lines = text.split('\n');
    assert.equal(lines.filter((l) => l !== '' && !l.startsWith('(')).length, LIST_FILES_LIMIT);
    assert.ok(lines.includes('a-top.txt'));
    assert.equal(lines.at(-1), `(File list truncated at ${LIST_FILES_LIMIT} entries. Use list_files on a subfolder to see more.)`);
  });

  test('rejects a recursive value that is not true or false', async () => {
    const error = mistakeText(await harness.run(listFilesTool, { path: '.', recursive: 'yes' }));
    assert.equal(error, 'recursive must be "true" or "false", got "yes".');
  });

  test('reports a missing folder and a file given as folder', async () => {
    ws.write('a.txt', 'x');
    assert.match(mistakeText(await harness.run(listFilesTool, { path: 'nope' })), /Directory not found: nope/);
    assert.match(mistakeText(await harness.run(listFilesTool, { path: 'a.txt' })), /a\.txt is a file, not a directory\. Use read_file/);
  });

  test('asks before listing outside the workspace: ../.., an absolute path, a symlink', async () => {
    const outside = createTempWorkspace('smith-outside-');
    try {
      outside.write('secret.txt', 'x');
      symlinkSync(outside.root, join(ws.root, 'link'));
      harness.answers = [{ approved: false, feedback: 'stay inside' }, { approved: false }, { approved: true }];
      assert.deepEqual(await harness.run(listFilesTool, { path: '../..' }), { kind: 'rejected', feedback: 'stay inside' });
      assert.deepEqual(await harness.run(listFilesTool, { path: outside.root }), { kind: 'rejected', feedback: undefined });
      const viaLink = output(await harness.run(listFilesTool, { path: 'link' }));
      assert.equal(viaLink, `Contents of ${outside.root} (paths relative to it):\nsecret.txt`);
      assert.equal(harness.asked.length, 3);
      assert.equal(harness.asked[2]!.path, outside.root);
      assert.match(harness.asked[2]!.summary, /^List files in /);
    } finally {
      outside.dispose();
    }
  });

  test('refuses to list the filesystem root or the home folder recursively, without asking', async () => {
    const root = mistakeText(await harness.run(listFilesTool, { path: '/', recursive: 'true' }));
    assert.match(root, /Refusing to list \/ recursively: it is the filesystem root/);
    const home = mistakeText(await harness.run(listFilesTool, { path: homedir(), recursive: 'true' }));
    assert.match(home, /it is the home directory/);
    assert.equal(harness.asked.length, 0);
    harness.answers = [{ approved: false }, { approved: true }];
    assert.equal((await harness.run(listFilesTool, { path: '/' })).kind, 'rejected', 'a flat listing of / only needs approval');
    const flat = output(await harness.run(listFilesTool, { path: '/' })).split('\n');
    assert.equal(flat[0], 'Contents of / (paths relative to it):');
    assert.ok(flat.includes('tmp/'), flat.join('\n'));
  });
});
