import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import ignore from 'ignore';
import { judge, ruleSet } from '../../../src/core/workspace/file-listing.js';
import { mayMatchName, ruleEndings } from '../../../src/core/workspace/ignore-endings.js';

// Pieces of patterns, wildcards, escapes, negations, comments, trailing spaces and slashes included.
const PATTERN_PIECES = [
  'a',
  'b',
  'ab',
  '.log',
  '.',
  'x',
  '*',
  '?',
  '**',
  '[ab]',
  '[!a]',
  '[a-',
  ']',
  '\\',
  '\\*',
  '\\ ',
  ' ',
  '\t',
  '!',
  '#',
  '/',
  '\uFEFF',
  '\r',
];
const NAME_PIECES = ['a', 'b', 'x', '.', '.log', 'log', '*', '?', '!', '#', ' ', '[', ']', '\\', '\uFEFF', '\t'];

const pattern = fc.array(fc.constantFrom(...PATTERN_PIECES), { minLength: 0, maxLength: 6 }).map((pieces) => pieces.join(''));
const text = fc.tuple(fc.array(pattern, { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\r\n')).map(([lines, eol]) => lines.join(eol));
const name = fc
  .array(fc.constantFrom(...NAME_PIECES), { minLength: 1, maxLength: 6 })
  .map((pieces) => pieces.join(''))
  .filter((n) => n !== '.' && n !== '..');

describe('ignore rule endings', () => {
  test('a name the shortcut passes over matches no rule, as a file or as a folder', () => {
    let shortcuts = 0;
    fc.assert(
      fc.property(text, fc.array(name, { minLength: 1, maxLength: 8 }), (rules, names) => {
        const endings = ruleEndings(rules);
        if (!endings) return;
        const matcher = ignore({ ignorecase: false }).add(rules);
        for (const n of names) {
          if (mayMatchName(endings, n)) continue;
          shortcuts++;
          for (const path of [n, `${n}/`]) {
            const result = matcher.test(path);
            assert.ok(!result.ignored && !result.unignored, `${JSON.stringify(rules)} decides ${JSON.stringify(path)}`);
          }
        }
      }),
      { numRuns: 10_000 },
    );
    assert.ok(shortcuts > 1000, `the shortcut was taken ${shortcuts} times`);
  });

  test('plain rules have endings; a rule ending in a wildcard, class, escape or space has none', () => {
    const endings = ruleEndings('# build output\nnode_modules/\n*.log\n!keep.log\n\n');
    assert.ok(endings);
    assert.equal(mayMatchName(endings, 'module-1.ts'), false);
    assert.equal(mayMatchName(endings, 'debug.log'), true);
    assert.equal(mayMatchName(endings, 'node_modules'), true);
    // A leading slash anchors the rule but the name still ends with what follows it.
    assert.equal(mayMatchName(ruleEndings('/dist') ?? new Map(), 'dist'), true);
    // A byte-order mark is left out of the tail wherever it stands (git takes it as a pattern except at a file's start).
    assert.equal(ruleEndings('\n\uFEFF'), undefined);
    assert.equal(mayMatchName(ruleEndings('\uFEFFcache') ?? new Map(), 'cache'), true);
    // A negation or a comment behind the mark: the rule still asks about the names it may decide.
    assert.equal(mayMatchName(ruleEndings('\uFEFF!a') ?? new Map(), 'a'), true);
    assert.equal(mayMatchName(ruleEndings('x\n\uFEFF#b') ?? new Map(), '#b'), true);
    for (const rules of ['build*', 'x?', 'a[bc]', 'trailing\\', 'spaced ', '/', '!']) assert.equal(ruleEndings(rules), undefined, rules);
  });

  test('judge gives the verdicts of the rules themselves, with and without the shortcut', () => {
    const set = ruleSet('', 'node_modules/\n*.log\n!keep.log\nbuild/\n');
    assert.ok(set.byNameOnly && set.endings);
    const plain = { ...set, endings: undefined };
    for (const [n, isFolder] of [
      ['module.ts', false],
      ['debug.log', false],
      ['keep.log', false],
      ['build', true],
      ['build', false],
      ['node_modules', true],
      ['logs', true],
    ] as const) {
      assert.deepEqual(judge([set], n, n, isFolder), judge([plain], n, n, isFolder), `${n} (${isFolder ? 'folder' : 'file'})`);
    }
    assert.equal(judge([set], 'debug.log', 'debug.log', false).excluded, true);
    assert.equal(judge([set], 'keep.log', 'keep.log', false).excluded, false);
    assert.equal(judge([set], 'build', 'build', false).excluded, false);
  });
});
