import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fuzzyScore, rankPaths } from '../../../src/core/context/mention-completions.js';
import { activeCommand, activeMention, completeCommand, completeMention } from '../../../webview-ui/src/chat/mention-text.js';

describe('@-mention completion', () => {
  test('fuzzy matching: the characters in order, file-name and word-start matches first', () => {
    assert.equal(fuzzyScore('src/app.ts', 'xyz'), undefined);
    assert.deepEqual(rankPaths(['docs/application-notes.md', 'lib/mapping.ts', 'src/app.ts', 'readme.md'], 'app'), [
      'src/app.ts',
      'docs/application-notes.md',
      'lib/mapping.ts',
    ]);
    assert.ok(fuzzyScore('src/components/button.tsx', 'scb')! > 0);
    assert.equal(fuzzyScore('anything', ''), 0);
  });

  test('the mention at the caret is found where the core reads mentions, not in e-mail addresses', () => {
    assert.deepEqual(activeMention('Fix @src/ap', 11), { at: 4, query: 'src/ap' });
    assert.deepEqual(activeMention('@', 1), { at: 0, query: '' });
    assert.deepEqual(activeMention('see (@doc', 9), { at: 5, query: 'doc' });
    assert.equal(activeMention('mail me@example.com', 19), undefined);
    assert.equal(activeMention('@src/app.ts then more', 21), undefined, 'the caret is past the mention');
  });

  test('completing replaces the typed part; a file gets a space, a folder does not', () => {
    const text = 'Fix @ap in the app';
    const mention = activeMention(text, 7)!;
    assert.deepEqual(completeMention(text, mention, 'src/app.ts'), { text: 'Fix @src/app.ts  in the app', caret: 16 });
    assert.deepEqual(completeMention('@sr', activeMention('@sr', 3)!, 'src/'), { text: '@src/', caret: 5 });
  });
});

describe('/command completion', () => {
  test('a command is typed only at the very start of the box, before any space', () => {
    assert.deepEqual(activeCommand('/rev', 4), { at: 0, query: 'rev' });
    assert.deepEqual(activeCommand('/', 1), { at: 0, query: '' });
    assert.equal(activeCommand('/review src', 11), undefined);
    assert.equal(activeCommand('see /rev', 8), undefined);
  });

  test('completing puts the name and one space, keeping what follows', () => {
    assert.deepEqual(completeCommand('/rev', activeCommand('/rev', 4)!, 'review'), { text: '/review ', caret: 8 });
    assert.deepEqual(completeCommand('/rev src/a.ts', activeCommand('/rev src/a.ts', 4)!, 'review'), { text: '/review src/a.ts', caret: 8 });
  });
});
