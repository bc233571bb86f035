import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { REPL_COMMANDS, replCompleter } from '../../../src/cli/repl-completion.js';
import { REPL_HELP } from '../../../src/cli/repl-commands.js';

describe('Tab in the REPL', () => {
  let root: string;
  let storage: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'smith-complete-'));
    storage = mkdtempSync(join(tmpdir(), 'smith-complete-storage-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'app.ts'), 'x');
    writeFileSync(join(root, 'src', 'apply.ts'), 'x');
    mkdirSync(join(root, '.smith', 'commands'), { recursive: true });
    writeFileSync(join(root, '.smith', 'commands', 'review.md'), 'Review $ARGUMENTS');
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  });

  test('the REPL’s commands come from its help, every one of them', () => {
    for (const name of ['help', 'clear', 'condense', 'rewind', 'plan', 'act', 'mode', 'exit']) assert.ok(REPL_COMMANDS.includes(name), name);
    for (const name of REPL_COMMANDS) assert.match(REPL_HELP, new RegExp(`^ {2}/${name}\\b`, 'm'));
  });

  test('/ at the start completes the REPL’s commands and the user’s', async () => {
    const complete = replCompleter({ cwd: root, storageDir: storage });
    assert.deepEqual(await complete('/con'), [['/condense'], '/con']);
    assert.deepEqual(await complete('/re'), [['/resume', '/rewind', '/review'], '/re']);
    assert.deepEqual(await complete('plain text'), [[], 'plain text']);
  });

  test('@ completes the workspace’s files, without the editor-only mentions', async () => {
    const complete = replCompleter({ cwd: root, storageDir: storage });
    const [paths, replaced] = await complete('explain @app');
    assert.equal(replaced, '@app');
    assert.deepEqual(paths, ['@src/app.ts', '@src/apply.ts']);
    const [specials] = await complete('look at @');
    assert.ok(specials.includes('@git-changes'));
    assert.ok(!specials.includes('@problems') && !specials.includes('@terminal'));
  });
});
