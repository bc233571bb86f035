// One tool per message: whatever chunk boundary the stream has, the first call is the one run and
// the model is told exactly how many calls after it were ignored.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiProvider, ApiStreamChunk } from '../../../src/core/providers/types.js';
import { runModelTurn } from '../../../src/core/task/model-turn.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import { writeToFileTool } from '../../../src/core/tools/write-to-file.js';

const MESSAGE =
  'Reading both.\n<read_file>\n<path>a.txt</path>\n</read_file>\n<read_file>\n<path>b.txt</path>\n</read_file>\nThen <write_to_file>\n<path>c.txt</path>\n<content>C</content>\n</write_to_file>';

function streaming(chunks: readonly string[]): ApiProvider {
  return {
    id: 'openai',
    modelId: 'm',
    async *createMessage() {
      for (const text of chunks) yield { type: 'text', text } satisfies ApiStreamChunk;
    },
  };
}

describe('the one-tool rule', () => {
  const grammar = new ToolRegistry([readFileTool, writeToFileTool]).grammar();
  const request = { systemPrompt: 's', messages: [{ role: 'user' as const, content: 'go' }] };

  test('the message in one chunk: the first call, and two ignored', async () => {
    const turn = await runModelTurn(streaming([MESSAGE]), request, grammar, () => {});
    assert.deepEqual(
      turn.tools.map((t) => t.params.path),
      ['a.txt'],
    );
    assert.equal(turn.ignoredTools, 2);
  });

  test('split in two at every position: always the first call, always two ignored', async () => {
    for (let at = 1; at < MESSAGE.length; at++) {
      const turn = await runModelTurn(streaming([MESSAGE.slice(0, at), MESSAGE.slice(at)]), request, grammar, () => {});
      assert.deepEqual(
        turn.tools.map((t) => t.params.path),
        ['a.txt'],
        `split at ${at}`,
      );
      assert.equal(turn.ignoredTools, 2, `split at ${at}: ${JSON.stringify(MESSAGE.slice(at - 5, at))}|${JSON.stringify(MESSAGE.slice(at, at + 5))}`);
    }
  });

  test('no tool: nothing is counted as ignored', async () => {
    const turn = await runModelTurn(streaming(['Just ', 'text.']), request, grammar, () => {});
    assert.equal(turn.ignoredTools, 0);
    assert.deepEqual(turn.tools, []);
  });
});
