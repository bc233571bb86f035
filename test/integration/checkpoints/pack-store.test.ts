// The store on disk: objects packed and deflated, listings stored as deltas, small packs merged,
// and the size the history shows equal to the bytes the store's files take.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { CheckpointStore } from '../../../src/core/checkpoints/checkpoint-store.js';
import { ObjectStore } from '../../../src/core/checkpoints/object-store.js';
import { PackReader } from '../../../src/core/checkpoints/pack-file.js';
import { encodePack, PackWriter } from '../../../src/core/checkpoints/pack-writer.js';
import { reachableObjects, readListing } from '../../../src/core/checkpoints/tree-objects.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
let storage: TempWorkspace;
const open = () => new CheckpointStore({ storageDir: storage.root, workspaceRoot: ws.root, ignore: NOTHING_IGNORED });
const packsOf = (store: CheckpointStore) =>
  readdirSync(join(store.dir, 'packs'))
    .filter((name) => name.endsWith('.pack'))
    .map((name) => join(store.dir, 'packs', name));
/** Bytes of every file in the store folder (packs, stat cache, anything else). */
function filesBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    bytes += entry.isDirectory() ? filesBytes(path) : statSync(path).size;
  }
  return bytes;
}

beforeEach(() => {
  ws = createTempWorkspace('smith-cp-pack-');
  storage = createTempWorkspace('smith-cp-pack-store-');
});
afterEach(() => {
  ws.dispose();
  storage.dispose();
});

describe('checkpoint packs', () => {
  test("a pack's index is in the order of the hashes and finds every object, also where many hashes share their first bytes or two share the index's key", () => {
    const objects = Array.from({ length: 3000 }, (_, i) => ({
      // A third share their first two bytes, so they fall into one bucket of the sort.
      hash: i % 3 === 0 ? `0000${randomBytes(30).toString('hex')}` : randomBytes(32).toString('hex'),
      bytes: Buffer.from(`object ${i}`),
    }));
    const key = randomBytes(16).toString('hex');
    objects.push({ hash: `${key}${'ff'.repeat(16)}`, bytes: Buffer.from('tie, high') }, { hash: `${key}${'00'.repeat(16)}`, bytes: Buffer.from('tie, low') });
    const file = join(storage.root, 'crafted.pack');
    writeFileSync(file, encodePack(objects));
    const pack = PackReader.open(file);
    const keys = [...pack.objects()].map(([k]) => k);
    assert.equal(keys.length, objects.length);
    for (let i = 1; i < keys.length; i++) assert.ok((keys[i - 1] as string) <= (keys[i] as string), `row ${i} out of order`);
    for (const object of objects) {
      const place = pack.find(Buffer.from(object.hash.slice(0, 32), 'hex'));
      assert.ok(place, `${object.hash} not found`);
      if (object.hash.startsWith(key)) continue; // a key shared by two objects finds one of them
      const content = pack.inflateBlock(place.block, undefined).subarray(place.offset, place.offset + place.length);
      assert.deepEqual(content, object.bytes);
    }
    assert.equal(pack.find(Buffer.alloc(16, 0xab)), undefined);
  });

  test('objects read back while their pack is still being written (a full block, the open one, a big one, a delta), and a pack that cannot be written keeps them for the next flush', () => {
    const dir = join(storage.root, 'store', 'objects');
    mkdirSync(dir, { recursive: true });
    const store = new ObjectStore(dir);
    const small = Array.from({ length: 3000 }, (_, i) => Buffer.from(`small object ${i} `.repeat(1 + (i % 7))));
    const big = randomBytes(200 * 1024);
    const listing = Buffer.from('a listing '.repeat(500));
    const smallHashes = small.map((bytes) => store.put(bytes));
    const bigHash = store.put(big);
    const listingHash = store.put(listing);
    const changed = store.put(Buffer.concat([listing, Buffer.from('one more row')]), listingHash);
    const all: Array<[string, Buffer]> = [
      ...small.map((bytes, i): [string, Buffer] => [smallHashes[i] as string, bytes]),
      [bigHash, big],
      [listingHash, listing],
    ];
    all.push([changed, Buffer.concat([listing, Buffer.from('one more row')])]);
    for (const [hash, bytes] of all) assert.deepEqual(store.get(hash), bytes);
    // The packs folder is a file: the pack cannot be written, and nothing is lost.
    writeFileSync(join(storage.root, 'store', 'packs'), 'in the way');
    assert.throws(() => store.flush());
    for (const [hash, bytes] of all) assert.deepEqual(store.get(hash), bytes);
    rmSync(join(storage.root, 'store', 'packs'));
    store.flush();
    const reopened = new ObjectStore(dir);
    for (const [hash, bytes] of all) assert.deepEqual(reopened.get(hash), bytes);
    assert.equal(reopened.count(), all.length);
  });

  test('empty objects are found after their pack is written: alone in a pack, or among others', () => {
    const dir = join(storage.root, 'store', 'objects');
    mkdirSync(dir, { recursive: true });
    const store = new ObjectStore(dir);
    const empty = store.put(Buffer.alloc(0));
    store.flush();
    const other = store.put(Buffer.from('something'));
    assert.equal(store.put(Buffer.alloc(0)), empty);
    store.flush();
    for (const reader of [store, new ObjectStore(dir)]) {
      assert.equal(reader.get(empty).length, 0);
      assert.equal(reader.get(other).toString(), 'something');
    }
    const pack = encodePack([
      { hash: empty, bytes: Buffer.alloc(0) },
      { hash: other, bytes: Buffer.from('something') },
    ]);
    const file = join(storage.root, 'two.pack');
    writeFileSync(file, pack);
    const reader = PackReader.open(file);
    for (const [, place] of reader.objects()) assert.ok(place.block < reader.blocks.length, `block ${place.block} of ${reader.blocks.length}`);
  });

  test('the blocks helper threads deflated are kept, and still each content is stored once: copies of a file, and contents stored before (a branch switched back)', async () => {
    const name = (i: number) => `pkg-${i % 9}/dir-${i % 31}/file-${i}.ts`;
    const original = (i: number) => (i % 3 === 0 ? `export const same = ${i % 5};\n` : `export const v${i} = ${i};\n`.repeat(1 + (i % 4)));
    for (let i = 0; i < 6000; i++) ws.write(name(i), original(i));
    let helperBlocks = 0;
    const addBlock = PackWriter.prototype.addBlock;
    PackWriter.prototype.addBlock = function (this: PackWriter, ...args: Parameters<PackWriter['addBlock']>) {
      helperBlocks++;
      return addBlock.apply(this, args);
    };
    try {
      const store = open();
      /** Every object's content is in the packs' blocks exactly once: their bytes add up to the distinct objects' sizes. */
      const assertStoredOnce = (roots: readonly string[]) => {
        const objects = new Set<string>();
        for (const root of roots) reachableObjects(store.objects, root, objects);
        const distinctBytes = [...objects].reduce((sum, hash) => sum + store.objects.get(hash).length, 0);
        const blockBytes = packsOf(store).reduce((sum, file) => sum + PackReader.open(file).blocks.reduce((n, block) => n + block.length, 0), 0);
        assert.equal(blockBytes, distinctBytes);
        assert.equal(store.objects.count(), objects.size);
      };
      const first = await store.snapshot();
      assert.ok(helperBlocks > 0, 'no block deflated by a helper was kept');
      assertStoredOnce([first.root]);
      for (let i = 0; i < 6000; i += 2) ws.write(name(i), `switched ${i}\n`);
      const switched = await store.snapshot();
      for (let i = 0; i < 6000; i += 2) ws.write(name(i), original(i));
      const back = await store.snapshot();
      assert.equal(back.changed.length, 3000);
      assertStoredOnce([first.root, switched.root, back.root]);
      assert.equal(back.root, first.root);
    } finally {
      PackWriter.prototype.addBlock = addBlock;
    }
  });

  test('a checkpoint of many files is one compressed pack, smaller than the files', async () => {
    let bytes = 0;
    for (let i = 0; i < 600; i++) {
      const text = `/** Runs step ${i}. */\nexport function run${i}(input: number): number {\n  const scaled = input * ${i % 97};\n  if (scaled > 1000) throw new Error('step ${i}: too large');\n  return scaled + ${i % 13};\n}\n`;
      ws.write(`pkg-${i % 5}/src/module-${i}.ts`, text);
      bytes += text.length;
    }
    const store = open();
    const first = await store.snapshot();
    assert.equal(packsOf(store).length, 1);
    assert.deepEqual(readdirSync(store.dir).sort(), ['packs', 'stat-cache.json']);
    assert.ok(store.storedSize([first.root]) < bytes, `${store.storedSize([first.root])} bytes stored for ${bytes} bytes of files`);
    assert.match(store.contentAt(first.root, 'pkg-3/src/module-8.ts')?.toString() ?? '', /step 8: too large/);
  });

  test('a listing that replaces an earlier one is a delta of it; many small packs become one, and a store opened before still reads everything', async () => {
    for (let i = 0; i < 300; i++) ws.write(`src/module-${i}.ts`, `export const value${i} = ${i};\n`);
    const store = open();
    const earlier = open(); // another Smith on the same store
    const roots = [(await store.snapshot()).root];
    // The folder's listing (300 rows) deflated whole: what each checkpoint would cost without deltas.
    const [, , srcListing] = readListing(store.objects, roots[0] as string).find(([name]) => name === 'src') ?? [];
    const whole = deflateSync(store.objects.get(srcListing as string)).length;
    for (let i = 0; i < 20; i++) {
      ws.write(`src/module-${i}.ts`, `export const value${i} = ${-i};\n`);
      roots.push((await store.snapshot()).root);
    }
    assert.ok(packsOf(store).length <= 17, `${packsOf(store).length} packs`);
    const deltas = packsOf(store).flatMap((file) => PackReader.open(file).blocks.filter((block) => block.base !== undefined));
    assert.ok(deltas.length > 0, 'changed listings are stored as deltas');
    const later = store.storedSize(roots) - store.storedSize([roots[0] as string]);
    assert.ok(later < 2 * whole, `20 checkpoints after one edit each took ${later} bytes; the listing alone is ${whole}`);
    for (const [i, root] of roots.entries()) {
      const expected = i === 0 ? 'export const value0 = 0;\n' : `export const value${i - 1} = ${-(i - 1)};\n`;
      assert.equal(earlier.contentAt(root, `src/module-${i === 0 ? 0 : i - 1}.ts`)?.toString(), expected);
      assert.equal(open().contentAt(root, 'src/module-299.ts')?.toString(), 'export const value299 = 299;\n');
    }
  });

  test("the size of every checkpoint the store holds is the bytes of the store's files", async () => {
    for (let i = 0; i < 50; i++) ws.write(`d${i % 4}/f${i}.txt`, `file ${i} `.repeat(40));
    const store = open();
    const roots = [(await store.snapshot()).root];
    for (let i = 0; i < 5; i++) {
      ws.write(`d${i}/new-${i}.txt`, `new ${i}`.repeat(100));
      roots.push((await store.snapshot()).root);
    }
    store.flushStatCache();
    assert.ok(Math.abs(store.storedSize(roots) - filesBytes(store.dir)) <= 1, `${store.storedSize(roots)} vs ${filesBytes(store.dir)}`);
    // Collecting the later checkpoints frees their part, and the figure still matches the disk.
    assert.ok(store.collectGarbage([roots[0] as string], 0) > 0);
    await store.snapshot(); // the store's own latest scan stays, as the next one builds on it
    store.flushStatCache();
    assert.equal(store.contentAt(roots[0] as string, 'd1/f1.txt')?.toString(), 'file 1 '.repeat(40));
  });
});
