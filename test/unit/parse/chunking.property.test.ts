import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAssistantMessage } from '../../../src/core/parse/streaming-tool-parser.js';
import { assertGrowsTowards, chunksAt, stream as streamWith } from './chunking-helpers.js';
import type { Snapshot } from './chunking-helpers.js';
import { CORPUS, TEST_GRAMMAR } from './corpus.js';

const stream = (chunks: readonly string[]) => streamWith(TEST_GRAMMAR, chunks);

/** The longest suffix of `received` that is a proper, non-empty prefix of one of `tags`. */
function trailingFragment(received: string, tags: readonly string[]): string {
  let best = '';
  for (const tag of tags) {
    for (let len = Math.min(tag.length - 1, received.length); len > best.length; len--) {
      if (received.endsWith(tag.slice(0, len))) {
        best = tag.slice(0, len);
        break;
      }
    }
  }
  return best;
}

const OPENING_TAGS = ['<thinking>', '<think>', ...[...TEST_GRAMMAR.tools.keys()].map((t) => `<${t}>`)];

/**
 * The last, growing block must not show a fragment at the end of the received text that could
 * still become a tag. (A fragment that also precedes itself, as in "</</", is allowed: the first
 * copy is already known to be literal.)
 */
function assertNoTrailingFragment(snapshot: Snapshot): void {
  const last = snapshot.blocks[snapshot.blocks.length - 1];
  if (last === undefined || !last.partial) return;
  let shown: string;
  let tags: string[];
  if (last.kind === 'tool') {
    const names = Object.keys(last.params);
    const param = names[names.length - 1];
    if (param === undefined) return;
    shown = last.params[param] ?? '';
    tags = [`</${param}>`, `</${last.name}>`];
  } else {
    shown = last.text;
    tags = last.kind === 'thinking' ? ['</thinking>', '</think>'] : OPENING_TAGS;
  }
  const fragment = trailingFragment(snapshot.received, tags);
  if (fragment.length < 2) return;
  const before = snapshot.received.slice(0, -fragment.length);
  if (before.endsWith(fragment)) return;
  assert.ok(!shown.endsWith(fragment), `partial value ${JSON.stringify(shown.slice(-40))} shows fragment ${fragment}`);
}

describe('chunking never changes the result', () => {
  for (const item of CORPUS) {
    const whole = parseAssistantMessage(item.text, TEST_GRAMMAR);

    test(`${item.name}: random chunkings`, () => {
      fc.assert(
        fc.property(fc.array(fc.nat({ max: item.text.length }), { maxLength: 60 }), (cuts) => {
          const { final } = stream(chunksAt(item.text, cuts));
          assert.deepEqual(final, whole);
        }),
        { numRuns: 300 },
      );
    });

    test(`${item.name}: 1-char chunks, with every snapshot checked`, () => {
      const { snapshots, final } = stream(item.text.split(''));
      assert.deepEqual(final, whole);
      for (const snapshot of snapshots) {
        assertNoTrailingFragment(snapshot);
        assertGrowsTowards(snapshot, final);
      }
    });

    test(`${item.name}: snapshots of random chunkings grow monotonically`, () => {
      fc.assert(
        fc.property(fc.array(fc.nat({ max: item.text.length }), { maxLength: 30 }), (cuts) => {
          const { snapshots, final } = stream(chunksAt(item.text, cuts));
          for (const snapshot of snapshots) {
            assertNoTrailingFragment(snapshot);
            assertGrowsTowards(snapshot, final);
          }
        }),
        { numRuns: 100 },
      );
    });
  }

  test('the corpus has the required variety', () => {
    assert.ok(CORPUS.length >= 12);
    const all = CORPUS.map((c) => parseAssistantMessage(c.text, TEST_GRAMMAR));
    const kinds = new Set(all.flat().map((b) => (b.kind === 'tool' ? b.name : b.kind)));
    for (const kind of ['text', 'thinking', 'read_file', 'write_to_file', 'replace_in_file', 'attempt_completion', 'ask_followup_question']) {
      assert.ok(kinds.has(kind), `corpus lacks ${kind}`);
    }
    assert.ok(
      all.some((blocks) => blocks.some((b) => b.kind === 'tool' && b.partial)),
      'corpus lacks an unterminated tool',
    );
  });

  test('arbitrary text, including tag soup, parses the same however it is chunked', () => {
    const piece = fc.constantFrom(
      '<',
      '>',
      '/',
      '\n',
      '\r\n',
      ' ',
      'x',
      '<read_file>',
      '</read_file>',
      '<path>',
      '</path>',
      '<content>',
      '</content>',
      '<write_to_file>',
      '</write_to_file>',
      '<thinking>',
      '</thinking>',
      '<think>',
      '</',
      '<<',
      '<diff>',
      '</diff>',
      '<replace_in_file>',
      '</replace_in_file>',
      '<foo>',
      'é',
      '😀',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 20 }), (pieces, cuts) => {
        const text = pieces.join('');
        const { snapshots, final } = stream(chunksAt(text, cuts));
        assert.deepEqual(final, parseAssistantMessage(text, TEST_GRAMMAR));
        for (const snapshot of snapshots) assertGrowsTowards(snapshot, final, false);
      }),
      { numRuns: 2000 },
    );
  });
});
