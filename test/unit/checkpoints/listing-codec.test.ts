// Folder listings as stored: binary rows that read back exactly as written, listings an earlier
// Smith wrote as JSON still read, and damaged bytes refused with a clear error.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { decodeListing, encodeListing, type TreeRow } from '../../../src/core/checkpoints/listing-codec.js';

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

describe('checkpoint listing codec', () => {
  test('every kind of row, names in any script and sizes past 32 bits read back as written', () => {
    const rows: TreeRow[] = [
      ['', 'f', hashOf('empty name'), 0],
      ['a b\tc', 'x', hashOf('x'), 1],
      ['big.bin', 'f', hashOf('big'), 2 ** 40 + 12345],
      ['link', 'l', hashOf('target'), 6],
      ['naïve-日本語-😀.txt', 'f', hashOf('unicode'), 127],
      ['skipped.log', 's', '', 0],
      ['src', 'd', hashOf('folder'), 0],
      ['x'.repeat(300), 'f', hashOf('long name'), 128],
    ];
    const bytes = encodeListing(rows);
    assert.deepEqual(decodeListing(bytes), rows);
    assert.equal(bytes[0], 0, 'a binary listing never starts as JSON does');
  });

  test('a listing holds half the bytes JSON with hex hashes took', () => {
    const rows: TreeRow[] = Array.from({ length: 100 }, (_, i) => [`module-${i}.ts`, 'f', hashOf(String(i)), 60 + i]);
    assert.ok(encodeListing(rows).length < Buffer.byteLength(JSON.stringify(rows)) * 0.6);
  });

  test('a JSON listing an earlier Smith wrote is still read', () => {
    const rows: TreeRow[] = [
      ['a.txt', 'f', hashOf('a'), 1],
      ['sub', 'd', hashOf('sub'), 0],
    ];
    assert.deepEqual(decodeListing(Buffer.from(JSON.stringify(rows))), rows);
  });

  test('cut short, an unknown kind or version, or a hash that is not hex: a clear error, never a wrong row', () => {
    const bytes = encodeListing([['file.txt', 'f', hashOf('f'), 1000]]);
    for (let end = 3; end < bytes.length; end++) assert.throws(() => decodeListing(bytes.subarray(0, end)), /cut short/, `cut at ${end}`);
    const unknownKind = Buffer.from(bytes);
    unknownKind[2] = 'q'.charCodeAt(0);
    assert.throws(() => decodeListing(unknownKind), /unknown kind/);
    const unknownVersion = Buffer.from(bytes);
    unknownVersion[1] = 9;
    assert.throws(() => decodeListing(unknownVersion), /unknown version/);
    assert.throws(() => encodeListing([['file.txt', 'f', 'not-a-hash', 1]]), /not a content hash/);
  });
});
