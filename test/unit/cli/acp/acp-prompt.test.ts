// An ACP prompt read as a Smith message: links become @-mentions (or are named when the mention
// syntax cannot spell them), embedded files context blocks judged by the same guards, images checked.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acpPromptMessage } from '../../../../src/cli/acp/acp-prompt.js';
import { MAX_MENTION_CHARS } from '../../../../src/core/context/mentions.js';

const nothingWithheld = () => undefined;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');

describe('acpPromptMessage', () => {
  test('text and file links in order, each link a mention with white space around it', () => {
    const message = acpPromptMessage(
      [
        { type: 'text', text: 'Compare' },
        { type: 'resource_link', uri: 'file:///ws/src/a.ts', name: 'a.ts' },
        { type: 'text', text: 'and' },
        { type: 'resource_link', uri: 'file:///ws/has%20space.ts', name: 'has space.ts' },
        { type: 'resource_link', uri: 'file:///elsewhere/b.ts', name: 'b.ts' },
        { type: 'resource_link', uri: 'https://example.com/x', name: 'x' },
      ],
      '/ws',
      nothingWithheld,
    );
    assert.equal(message.text, 'Compare @src/a.ts and the file "has space.ts" @/elsewhere/b.ts x <https://example.com/x>');
    assert.equal(message.context, '');
  });

  test('an embedded file is a context block (cut at the mention cap) with its attachment; a withheld one is refused', () => {
    const big = 'x'.repeat(MAX_MENTION_CHARS + 10);
    const message = acpPromptMessage(
      [
        { type: 'text', text: 'Read these' },
        { type: 'resource', resource: { uri: 'file:///ws/notes.md', text: 'short "note"' } },
        { type: 'resource', resource: { uri: 'file:///ws/big.txt', text: big } },
        { type: 'resource', resource: { uri: 'file:///ws/.env', text: 'SECRET=1' } },
        { type: 'resource', resource: { uri: 'file:///ws/blob.bin', blob: 'AAAA', mimeType: 'application/octet-stream' } },
      ],
      '/ws',
      (path) => (path.endsWith('.env') ? 'withheld: denied by Read(.env)' : undefined),
    );
    assert.match(message.context, /<file_content path="notes\.md">\nshort "note"\n<\/file_content>/);
    assert.match(message.context, /\[Cut at 50000 characters/);
    assert.doesNotMatch(message.context, /SECRET/);
    assert.deepEqual(
      message.attachments.map((a) => [a.kind, a.ref, a.truncated]),
      [
        ['file', 'notes.md', false],
        ['file', 'big.txt', true],
      ],
    );
    assert.deepEqual(message.problems, [
      '.env was not attached: withheld: denied by Read(.env).',
      'blob.bin was not attached: binary content (application/octet-stream) is not taken.',
    ]);
    assert.match(message.context, /<mention_problems>\n\.env was not attached/);
  });

  test('images are checked by their bytes; audio and a non-image are refused with why', () => {
    const message = acpPromptMessage(
      [
        { type: 'image', mimeType: 'image/png', data: PNG },
        { type: 'image', mimeType: 'image/png', data: Buffer.from('not an image').toString('base64') },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
      ],
      '/ws',
      nothingWithheld,
    );
    assert.equal(message.images.length, 1);
    assert.equal(message.images[0]!.mimeType, 'image/png');
    assert.equal(message.problems.length, 2);
    assert.match(message.problems[0]!, /not a PNG, JPEG, GIF or WebP image/);
    assert.match(message.problems[1]!, /does not take audio/);
  });
});
