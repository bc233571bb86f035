import assert from 'node:assert/strict';
import { test } from 'node:test';
import { imageForModel, imageTypeOf, MAX_IMAGE_BYTES } from '../../../src/core/context/image-files.js';

test('image types come from the bytes, not the name', () => {
  assert.equal(imageTypeOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'image/png');
  assert.equal(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
  assert.equal(imageTypeOf(Buffer.from('GIF89a')), 'image/gif');
  assert.equal(imageTypeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
  assert.equal(imageTypeOf(Buffer.from('RIFF\0\0\0\0WAVEfmt ')), undefined);
  assert.equal(imageTypeOf(Buffer.from('<svg/>')), undefined);
});

test('an image over the limit is refused with its size; one within it is prepared with its record', () => {
  const big = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(MAX_IMAGE_BYTES)]);
  const refused = imageForModel(big, 'big.gif');
  assert.ok('problem' in refused);
  assert.equal(refused.problem, 'big.gif is 5.0 MB; images up to 5 MB can be sent (Smith does not downscale them)');
  const ok = imageForModel(Buffer.from('GIF89a tiny'), 'tiny.gif');
  assert.ok('image' in ok);
  assert.deepEqual(
    [ok.image.mimeType, ok.image.data, ok.attachment.kind, ok.attachment.ref, ok.attachment.chars],
    ['image/gif', Buffer.from('GIF89a tiny').toString('base64'), 'image', 'tiny.gif', 11],
  );
});
