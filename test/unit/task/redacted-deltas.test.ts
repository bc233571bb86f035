// Redaction of what streams to the UI: each value of each block holds back only what could be
// the start of a secret, so no secret is ever shown, whatever the chunking, next to a block's
// edge or ending where the block ends; and once a block closes, everything of it is shown.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { foldBlockChange } from '../../../src/core/parse/block-changes.js';
import { parseAssistantMessage } from '../../../src/core/parse/streaming-tool-parser.js';
import type { AssistantBlock } from '../../../src/core/parse/types.js';
import type { ApiProvider } from '../../../src/core/providers/types.js';
import { REDACTED, SecretRedactor } from '../../../src/core/secrets/secret-redactor.js';
import { runModelTurn, type TurnDelta } from '../../../src/core/task/model-turn.js';
import { RedactedDeltas } from '../../../src/core/task/redacted-deltas.js';
import { chunksAt } from '../parse/chunking-helpers.js';
import { TEST_GRAMMAR } from '../parse/corpus.js';

const SECRET = 'sk-live-4f9a8b7c6d5e';
const OTHER = 'ghp_Zq81Xw2Vu7';

function scripted(chunks: readonly string[]): ApiProvider {
  return {
    id: 'openai-compatible',
    modelId: 'scripted',
    async *createMessage() {
      for (const text of chunks) yield { type: 'text', text };
    },
  };
}

/** Runs one turn through the redacting deltas; returns every delta shown and the blocks they fold to. */
async function shown(chunks: readonly string[]): Promise<{ deltas: TurnDelta[]; folded: AssistantBlock[]; text: string; blocks: readonly AssistantBlock[] }> {
  const redactor = new SecretRedactor();
  redactor.set('provider', [SECRET, OTHER]);
  const redacted = new RedactedDeltas(redactor);
  const deltas: TurnDelta[] = [];
  const folded: AssistantBlock[] = [];
  let text = '';
  const turn = await runModelTurn(scripted(chunks), { systemPrompt: '', messages: [] }, TEST_GRAMMAR, (delta) => {
    for (const out of redacted.map(delta)) {
      deltas.push(out);
      if (out.kind === 'text') text += out.text;
      else if (out.kind !== 'reasoning') foldBlockChange(folded, out);
    }
  });
  return { deltas, folded, text, blocks: redactor.redactDeep(turn.blocks) };
}

function assertNoSecret(deltas: readonly TurnDelta[], folded: readonly AssistantBlock[], what: string): void {
  for (const delta of deltas) {
    const json = JSON.stringify(delta);
    // Not even a piece that starts a secret and is then completed by the next delta: each value's
    // pieces are checked joined, through the fold.
    assert.ok(!json.includes(SECRET) && !json.includes(OTHER), `${what}: a delta shows a secret: ${json}`);
  }
  const all = JSON.stringify(folded);
  assert.ok(!all.includes(SECRET) && !all.includes(OTHER), `${what}: the streamed blocks show a secret`);
}

const MESSAGES = [
  // A secret in a text block that ends right where a tool call begins.
  `Here is the key ${SECRET}<read_file>\n<path>${OTHER}</path>\n</read_file>`,
  // Secrets at the very start of a block and of a parameter, and one ending at the block's close.
  `${SECRET} starts the text.\n\n<write_to_file>\n<path>${SECRET}.txt</path>\n<content>\n${OTHER}\nline two ${SECRET}\n</content>\n</write_to_file>`,
  // Two secrets back to back, and one in thinking.
  `<thinking>${OTHER}${SECRET}</thinking>\n${SECRET}${SECRET}`,
  // A secret split by where a stream cut ends an unfinished tool call.
  `<execute_command>\n<command>curl -H "Authorization: Bearer ${SECRET}"</command>\n</execute_command>`,
  // The message ends inside a secret's prefix: what is held back is released at the end.
  `text then ${SECRET.slice(0, 9)}`,
];

describe('redacted streaming deltas', () => {
  for (const [n, message] of MESSAGES.entries()) {
    test(`message ${n + 1}: no split position shows a secret, and the fold ends as the redacted blocks`, async () => {
      const whole = await shown([message]);
      assert.deepEqual(whole.folded, whole.blocks);
      for (let cut = 0; cut <= message.length; cut++) {
        const { deltas, folded, blocks } = await shown([message.slice(0, cut), message.slice(cut)]);
        assertNoSecret(deltas, folded, `cut at ${cut}`);
        assert.deepEqual(folded, blocks, `cut at ${cut}: the streamed blocks differ from the redacted final ones`);
      }
    });

    test(`message ${n + 1}: 1-char chunks and random chunkings`, async () => {
      const single = await shown(message.split(''));
      assertNoSecret(single.deltas, single.folded, '1-char chunks');
      assert.deepEqual(single.folded, single.blocks);
      assert.ok(!single.text.includes(SECRET) && !single.text.includes(OTHER), 'the raw text delta shows a secret');
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat({ max: message.length }), { maxLength: 30 }), async (cuts) => {
          const { deltas, folded, blocks } = await shown(chunksAt(message, cuts));
          assertNoSecret(deltas, folded, `cuts ${cuts.join(',')}`);
          assert.deepEqual(folded, blocks);
        }),
        { numRuns: 60 },
      );
    });
  }

  test('the secrets are replaced, not dropped', async () => {
    const { folded } = await shown(MESSAGES[1]!.split(''));
    const expected = parseAssistantMessage(MESSAGES[1]!.split(SECRET).join(REDACTED).split(OTHER).join(REDACTED), TEST_GRAMMAR);
    assert.deepEqual(folded, expected);
  });

  test('each delta carries about one chunk of text, never the block so far', async () => {
    const body = 'y'.repeat(20_000);
    const message = `<write_to_file>\n<path>a.txt</path>\n<content>\n${body}\n</content>\n</write_to_file>`;
    const { deltas } = await shown(
      chunksAt(
        message,
        Array.from({ length: message.length / 5 }, (_, i) => i * 5),
      ),
    );
    const longest = Math.max(...deltas.map((d) => (d.kind === 'block_appended' ? d.text.length : 0)));
    // A chunk plus what a secret's prefix held back.
    assert.ok(longest <= 5 + SECRET.length + 12, `a delta carried ${longest} characters`);
  });
});
