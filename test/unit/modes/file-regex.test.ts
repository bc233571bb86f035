import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_PATH_CHARS, matchFileRegex } from '../../../src/core/modes/file-regex.js';
import type { Mode } from '../../../src/core/modes/mode.js';
import { editRefusal } from '../../../src/core/modes/tool-permissions.js';

const docs: Mode = {
  slug: 'docs',
  name: 'Docs',
  roleDefinition: 'You write docs.',
  groups: ['read', { group: 'edit', fileRegex: '\\.md$', description: 'Markdown only' }],
  source: '/ws/.roomodes',
};

describe("a mode's fileRegex", () => {
  test('a matching path may be edited; another is refused with the mode, the pattern and its description', () => {
    assert.equal(editRefusal(docs, 'docs/guide.md'), undefined);
    const refusal = editRefusal(docs, 'src/app.ts');
    assert.match(
      refusal ?? '',
      /^The Docs mode may only edit files matching \\\.md\$ \(Markdown only\); "src\/app\.ts" does not match\. Nothing was changed\./,
    );
  });

  test('a mode without a pattern edits anything; a call naming no path is refused by a mode with one', () => {
    assert.equal(editRefusal({ ...docs, groups: ['edit'] }, undefined), undefined);
    assert.match(editRefusal(docs, undefined) ?? '', /this call names no path/);
  });

  test('a line break cannot split the judged name: `^…$` patterns see the whole path or refuse it', () => {
    assert.deepEqual(matchFileRegex('\\.md$', 'a.ts\nb.md'), { problem: 'the path holds a line break or another control character' });
    assert.match(editRefusal(docs, 'x.ts\nnotes.md') ?? '', /could not be judged: the path holds a line break/);
    assert.match(editRefusal(docs, 'x.md\u0000.ts') ?? '', /could not be judged/);
  });

  test('a path longer than the limit is refused without matching', () => {
    assert.deepEqual(matchFileRegex('.*', `${'a/'.repeat(MAX_PATH_CHARS / 2)}x.md`), { problem: `the path is longer than ${MAX_PATH_CHARS} characters` });
    assert.equal(matchFileRegex('.*', `${'a'.repeat(MAX_PATH_CHARS - 3)}.md`), 'match');
  });

  test('a catastrophic pattern is stopped and refuses the edit rather than hang the task', () => {
    const evil: Mode = { ...docs, groups: [{ group: 'edit', fileRegex: '^(a+)+$' }] };
    const verdict = matchFileRegex('^(a+)+$', `${'a'.repeat(60)}!`);
    assert.equal(typeof verdict, 'object');
    assert.match((verdict as { problem: string }).problem, /took longer than .* ms/);
    assert.match(editRefusal(evil, `${'a'.repeat(60)}!`) ?? '', /could not be judged: matching the pattern took longer/);
    // The same pattern on a harmless path still answers.
    assert.equal(matchFileRegex('^(a+)+$', 'aaaa'), 'match');
  });

  test('a pattern that does not compile allows nothing', () => {
    assert.match(editRefusal({ ...docs, groups: [{ group: 'edit', fileRegex: '(' }] }, 'a.md') ?? '', /not a valid regular expression/);
  });
});
