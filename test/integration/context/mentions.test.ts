import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { expandMentions, findMentions, MAX_MENTION_CHARS } from '../../../src/core/context/mentions.js';
import { readGuardOf } from '../../../src/core/permissions/read-rule-guard.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace('smith-mentions-');
});
afterEach(() => ws.dispose());
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: ws.root, encoding: 'utf8' });

describe('@-mentions', () => {
  test('findMentions: paths, folders, specials and URLs; not e-mail addresses; trailing punctuation dropped', () => {
    assert.deepEqual(findMentions('Fix @src/a.ts, then see @docs/ and (@git-changes). Mail me at me@example.com or read @https://example.com/page?x=1.'), [
      'src/a.ts',
      'docs/',
      'git-changes',
      'https://example.com/page?x=1',
    ]);
    assert.deepEqual(findMentions('@a.ts @a.ts'), ['a.ts']);
  });

  test('a file and a folder are attached in a context block with their hashes in the record', async () => {
    ws.write('src/a.ts', 'export const a = 1;\n');
    ws.write('docs/guide.md', '# Guide\n');
    const expanded = await expandMentions('Fix @src/a.ts using @docs/', { cwd: ws.root, ignore: NOTHING_IGNORED });
    assert.equal(expanded.text, 'Fix @src/a.ts using @docs/');
    assert.equal(
      expanded.context,
      '<context>\n<file path="src/a.ts">\nexport const a = 1;\n\n</file>\n\n<folder path="docs/">\ndocs/guide.md\n</folder>\n</context>',
    );
    assert.deepEqual(
      expanded.attachments.map((a) => [a.kind, a.ref, a.chars, a.truncated, a.sha256.length]),
      [
        ['file', 'src/a.ts', 20, false, 64],
        ['folder', 'docs/', 13, false, 64],
      ],
    );
    assert.deepEqual(expanded.problems, []);
  });

  test('things that do not exist stay text; outside, ignored and binary files are refused with the reason', async () => {
    ws.write('.smithignore', 'secrets/\n');
    ws.write('secrets/key.txt', 'TOP-SECRET-VALUE');
    ws.write('image.bin', Buffer.from([0, 1, 2, 0, 255]));
    const expanded = await expandMentions('Use @types/node, ask @alice, read @secrets/key.txt @image.bin @../outside @/etc/hostname', {
      cwd: ws.root,
      ignore: await loadSmithIgnore(ws.root),
    });
    assert.deepEqual(expanded.attachments, []);
    // @../outside does not exist: plain text, like @types/node and @alice.
    assert.deepEqual(expanded.problems, [
      '@secrets/key.txt is excluded by .smithignore and was not attached.',
      '@image.bin is a binary file and was not attached.',
      '@/etc/hostname is outside the workspace and was not attached.',
    ]);
    assert.match(expanded.context, /<mention_problems>\n@secrets\/key\.txt is excluded by \.smithignore/);
    assert.doesNotMatch(expanded.context, /TOP-SECRET-VALUE/);
  });

  test('an oversized file is cut with a note', async () => {
    ws.write('big.txt', 'x'.repeat(MAX_MENTION_CHARS + 100));
    const expanded = await expandMentions('@big.txt', { cwd: ws.root, ignore: NOTHING_IGNORED });
    assert.equal(expanded.attachments[0]?.truncated, true);
    assert.match(expanded.context, /\[Cut at 50000 characters: read the rest with the tools\.\]/);
  });

  test('@git-changes and @<commit> attach the working-tree diff and a commit', async () => {
    ws.write('a.txt', 'one\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'First commit');
    const hash = git('rev-parse', '--short', 'HEAD').trim();
    ws.write('a.txt', 'two\n');
    const expanded = await expandMentions(`What changed since @${hash}? See @git-changes`, { cwd: ws.root, ignore: NOTHING_IGNORED });
    assert.deepEqual(
      expanded.attachments.map((a) => a.kind),
      ['commit', 'git-changes'],
    );
    assert.match(expanded.context, new RegExp(`<commit hash="${hash}">\\ncommit [0-9a-f]{40}[\\s\\S]*First commit[\\s\\S]*\\+one`));
    assert.match(expanded.context, /<git_changes source="git-changes">\n M a\.txt\n\n[\s\S]*-one\n\+two/);
    const notACommit = await expandMentions('@deadbeef', { cwd: ws.root, ignore: NOTHING_IGNORED });
    assert.deepEqual(notACommit.attachments, []);
  });

  test('@problems and @terminal need an editor; with one they attach what it gives', async () => {
    const cli = await expandMentions('Fix @problems', { cwd: ws.root, ignore: NOTHING_IGNORED });
    assert.deepEqual(cli.problems, ['@problems works in the VS Code panel only.']);
    const editor = await expandMentions('Fix @problems from @terminal', {
      cwd: ws.root,
      ignore: NOTHING_IGNORED,
      problems: async () => [{ path: `${ws.root}/src/a.ts`, label: 'src/a.ts', line: 1, column: 1, severity: 'error', message: 'TS2304' }],
      terminal: async () => '',
    });
    assert.match(editor.context, /<problems source="problems">\nsrc\/a\.ts:1:1 error: TS2304\n<\/problems>/);
    assert.match(editor.context, /<terminal source="terminal">\n\(no terminal output\)\n<\/terminal>/);
  });

  test('@problems leaves out the problems of a file the Read rules withhold (they quote it) and of an ignored file', async () => {
    const token = 'SMITH-SECRET-7f3a9c';
    ws.write('.env', `API_KEY=${token}\n`);
    ws.write('.smithignore', 'private/\n');
    const problem = (rel: string, message: string) => ({
      path: `${ws.root}/${rel}`,
      label: rel,
      line: 1,
      column: 9,
      severity: 'warning' as const,
      message,
      source: 'cSpell',
    });
    const problems = async () => [
      problem('.env', `Unknown word (${token})`),
      problem('src/.././.env', `Unknown word (${token}-again)`),
      problem('private/key.txt', `Unknown word (${token}-ignored)`),
      problem('src/a.ts', 'Unknown word (colour)'),
    ];
    const place = { cwd: ws.root };
    const readGuard = readGuardOf([{ effect: 'deny', rule: 'Read(.env)', source: '--deny' }], place);
    const expanded = await expandMentions('Fix @problems', { ...place, ignore: await loadSmithIgnore(ws.root), readGuard, problems });
    assert.doesNotMatch(expanded.context, new RegExp(token));
    assert.match(expanded.context, /src\/a\.ts:1:9 warning: Unknown word \(colour\) \(cSpell\)/);
    assert.match(expanded.context, /\[1 problem in files excluded by \.smithignore left out\.\]/);
    assert.match(expanded.context, /withheld by the user's Read rules: \.env \(denied by Read\(\.env\)\)/);
  });
});
