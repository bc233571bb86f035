// Streaming helpers shared by the parser's property tests: cut a message into chunks, stream it,
// and check that what was shown while streaming grows towards the final blocks.
import assert from 'node:assert/strict';
import { StreamingToolParser } from '../../../src/core/parse/streaming-tool-parser.js';
import type { AssistantBlock, ToolGrammar } from '../../../src/core/parse/types.js';

/** Splits `text` at the given cut points (any order, duplicates allowed). */
export function chunksAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(text.slice(from, point));
    from = point;
  }
  chunks.push(text.slice(from));
  return chunks;
}

/** What the parser showed after one chunk. */
export interface Snapshot {
  readonly received: string;
  readonly blocks: readonly AssistantBlock[];
}

/** Pushes the chunks one by one, keeping a snapshot after each, then finishes. */
export function stream(grammar: ToolGrammar, chunks: readonly string[]): { snapshots: Snapshot[]; final: readonly AssistantBlock[] } {
  const parser = new StreamingToolParser(grammar);
  const snapshots: Snapshot[] = [];
  const completed = parser.completed;
  let settled: AssistantBlock[] = [];
  let received = '';
  for (const chunk of chunks) {
    parser.push(chunk);
    received += chunk;
    // Read as the engine reads after each chunk: the completed blocks and the current one.
    assert.equal(parser.completed, completed, '`completed` must stay the same array');
    for (const [i, block] of settled.entries()) assert.equal(completed[i], block, 'a completed block must never change');
    settled = [...completed];
    const current = parser.current;
    const blocks = current === undefined ? settled : [...settled, current];
    assert.deepEqual(parser.blocks, blocks, '`blocks` must equal `completed` followed by `current`');
    snapshots.push({ received, blocks });
  }
  const final = parser.finish();
  assert.deepEqual(completed, final, 'after finish, `completed` holds the final blocks');
  assert.equal(parser.current, undefined, 'after finish, no block is current');
  return { snapshots, final };
}

/**
 * Every block but the last is already final; the last one's values are prefixes of the final ones
 * (unless `prefixes` is false: a repeated parameter legitimately replaces its earlier value).
 */
export function assertGrowsTowards(snapshot: Snapshot, final: readonly AssistantBlock[], prefixes = true): void {
  snapshot.blocks.forEach((block, i) => {
    const target = final[i];
    assert.ok(target !== undefined, `snapshot has block ${i} that the final result lacks`);
    if (!block.partial) {
      assert.deepEqual(block, target);
      return;
    }
    assert.equal(i, snapshot.blocks.length - 1, 'only the last block may be partial');
    assert.equal(block.kind, target.kind);
    if (!prefixes) return;
    if (block.kind === 'tool' && target.kind === 'tool') {
      assert.equal(block.name, target.name);
      for (const [name, value] of Object.entries(block.params)) {
        const finalValue = target.params[name] ?? '';
        assert.ok(finalValue.startsWith(value), `${name}: ${JSON.stringify(value.slice(-40))} is not a prefix of the final value`);
      }
    } else if (block.kind !== 'tool' && target.kind !== 'tool') {
      assert.ok(target.text.startsWith(block.text), `${block.kind}: ${JSON.stringify(block.text.slice(-40))} is not a prefix`);
    }
  });
}
