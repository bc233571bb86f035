// The block deltas a reader sends after every chunk: folded in order, they are exactly the blocks
// the parser holds at that moment, and at the end the final blocks, however the message is cut.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { BlockChangeReader, foldBlockChange, type BlockChange } from '../../../src/core/parse/block-changes.js';
import { StreamingToolParser } from '../../../src/core/parse/streaming-tool-parser.js';
import type { AssistantBlock } from '../../../src/core/parse/types.js';
import { chunksAt } from './chunking-helpers.js';
import { CORPUS, TEST_GRAMMAR } from './corpus.js';

/** Streams the chunks, folding the changes after each one and comparing with the parser's blocks. */
function streamAndFold(chunks: readonly string[]): { folded: AssistantBlock[]; final: readonly AssistantBlock[]; changes: BlockChange[] } {
  const parser = new StreamingToolParser(TEST_GRAMMAR);
  const reader = new BlockChangeReader();
  const folded: AssistantBlock[] = [];
  const changes: BlockChange[] = [];
  const apply = (batch: BlockChange[]) => {
    for (const change of batch) {
      changes.push(change);
      foldBlockChange(folded, change);
    }
  };
  for (const chunk of chunks) {
    parser.push(chunk);
    apply(reader.read(parser));
    assert.deepEqual(folded, parser.blocks, 'the folded changes differ from the blocks after a chunk');
  }
  const final = parser.finish();
  apply(reader.read(parser));
  return { folded, final, changes };
}

const REPEATS = [
  '<read_file>\n<path>src/a.ts</path>\n<path>src/b/longer-name.ts</path>\n</read_file>',
  '<read_file><path>same-length-1</path><path>other-length2</path></read_file> after',
  '<write_to_file>\n<path>a.txt</path>\n<content>\nfirst body\n</content>\n<path>b.txt</path>\n</write_to_file>',
  '<write_to_file>\n<content>\nbody with </content> inside\n</content>\n<path>x</path>\n</write_to_file>\nmore <read_file><path>y</path></read_file>',
  'text <thinking>deep</thinking> more <execute_command><command>ls</command><command>ls -la</command></execute_command>',
];

describe('block changes', () => {
  for (const item of [...CORPUS, ...REPEATS.map((text, i) => ({ name: `repeated or re-set parameters ${i + 1}`, text }))]) {
    test(`${item.name}: every chunking folds to the parser's blocks, then to the final blocks`, () => {
      fc.assert(
        fc.property(fc.array(fc.nat({ max: item.text.length }), { maxLength: 40 }), (cuts) => {
          const { folded, final } = streamAndFold(chunksAt(item.text, cuts));
          assert.deepEqual(folded, final);
        }),
        { numRuns: 150 },
      );
      const { folded, final, changes } = streamAndFold(item.text.split(''));
      assert.deepEqual(folded, final);
      // Each block opens once and closes once, in order.
      const opened = changes.filter((c) => c.kind === 'block_opened').map((c) => c.index);
      const closed = changes.filter((c) => c.kind === 'block_closed').map((c) => c.index);
      assert.deepEqual(opened, [...final.keys()]);
      assert.deepEqual(closed, [...final.keys()]);
    });
  }

  test('a reader after every chunk is given the new text only', () => {
    const body = 'x'.repeat(50_000);
    const text = `<write_to_file>\n<path>big.txt</path>\n<content>\n${body}\n</content>\n</write_to_file>`;
    const { changes } = streamAndFold(
      chunksAt(
        text,
        Array.from({ length: text.length / 7 }, (_, i) => i * 7),
      ),
    );
    const appended = changes.flatMap((c) => (c.kind === 'block_appended' ? [c.text.length] : []));
    // No change carries more than a chunk (plus a held-back newline or tag fragment) of text.
    assert.ok(Math.max(...appended) <= 7 + 12, `a change carried ${Math.max(...appended)} characters`);
    assert.equal(
      appended.reduce((a, b) => a + b, 0),
      body.length + 'big.txt'.length,
    );
  });

  test('a block that arrives whole (a native call) opens, gets its values and closes', () => {
    const reader = new BlockChangeReader();
    const folded: AssistantBlock[] = [];
    const call: AssistantBlock = { kind: 'tool', name: 'read_file', params: { path: 'a.ts', start_line: '' }, partial: false, id: 'call_1' };
    for (const change of reader.whole(call)) foldBlockChange(folded, change);
    assert.deepEqual(folded, [call]);
  });
});
