import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { encodeListing, type TreeRow } from '../../../src/core/checkpoints/listing-codec.js';
import { materializeCheckpoint } from '../../../src/core/replay/scratch-workspace.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';
import { withWalledCheckpointStore } from '../../helpers/walled-checkpoint-store.js';

// An attacker (or an accident) puts symbolic links where the checkpoint has folders and files,
// or tampers with the store: a restore must never write, delete or create anything outside the
// workspace. `outside` is a sentinel folder whose fingerprint must not change.
const walled = withWalledCheckpointStore('links', { 'a.ts': 'outside a', 'secret.txt': 'outside secret', 'e.ts': 'outside e', 'deep/b.ts': 'outside b' });

const isRealFolder = (rel: string) => {
  const stats = lstatSync(join(walled.ws.root, rel));
  return stats.isDirectory() && !stats.isSymbolicLink();
};
const isRealFile = (rel: string) => lstatSync(join(walled.ws.root, rel)).isFile();

describe('a restore never writes through a symbolic link', () => {
  test('a top-level folder replaced by a link to a folder outside: the link is removed and a real folder restored', async () => {
    walled.ws.write('src/a.ts', 'v1');
    walled.ws.write('src/deep/b.ts', 'b1');
    const store = walled.open();
    const first = await store.snapshot();
    rmSync(join(walled.ws.root, 'src'), { recursive: true });
    symlinkSync(walled.outside.root, join(walled.ws.root, 'src'));
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(store.restore(plan), []);
    assert.ok(isRealFolder('src'));
    assert.ok(isRealFolder('src/deep'));
    assert.equal(walled.ws.read('src/a.ts'), 'v1');
    assert.equal(walled.ws.read('src/deep/b.ts'), 'b1');
  });

  test('a folder replaced by a link after the plan was made (the race): still never written through', async () => {
    walled.ws.write('src/a.ts', 'v1');
    const store = walled.open();
    const first = await store.snapshot();
    walled.ws.write('src/a.ts', 'v2');
    walled.ws.write('src/new.ts', 'new');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(
      plan.writes.map((w) => w.path),
      ['src/a.ts'],
    );
    assert.deepEqual(plan.deletes, ['src/new.ts']);
    // Swapped between the plan and the restore.
    rmSync(join(walled.ws.root, 'src'), { recursive: true });
    symlinkSync(walled.outside.root, join(walled.ws.root, 'src'));
    store.restore(plan);
    assert.ok(isRealFolder('src'));
    assert.equal(walled.ws.read('src/a.ts'), 'v1');
    assert.equal(existsSync(join(walled.ws.root, 'src/new.ts')), false);
  });

  test('a link in the middle of a deep path', async () => {
    walled.ws.write('a/b/c/d/e.ts', 'e1');
    walled.ws.write('a/b/c/keep.ts', 'k1');
    const store = walled.open();
    const first = await store.snapshot();
    rmSync(join(walled.ws.root, 'a/b'), { recursive: true });
    symlinkSync(walled.outside.root, join(walled.ws.root, 'a/b'));
    // outside has no c/d, but a restore that follows the link would create outside/c/d/e.ts.
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(store.restore(plan), []);
    assert.ok(isRealFolder('a/b'));
    assert.ok(isRealFolder('a/b/c/d'));
    assert.equal(walled.ws.read('a/b/c/d/e.ts'), 'e1');
    assert.equal(walled.ws.read('a/b/c/keep.ts'), 'k1');
    assert.equal(existsSync(join(walled.outside.root, 'c')), false);
  });

  test('a deep link swapped in after the plan, pointing at a folder that has the same file names', async () => {
    walled.ws.write('a/b/deep/b.ts', 'mine v1');
    const store = walled.open();
    const first = await store.snapshot();
    walled.ws.write('a/b/deep/b.ts', 'mine v2');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    rmSync(join(walled.ws.root, 'a/b'), { recursive: true });
    symlinkSync(walled.outside.root, join(walled.ws.root, 'a/b'));
    store.restore(plan);
    assert.equal(readFileSync(join(walled.outside.root, 'deep/b.ts'), 'utf8'), 'outside b');
    assert.ok(isRealFolder('a/b/deep'));
    assert.equal(walled.ws.read('a/b/deep/b.ts'), 'mine v1');
  });

  test('a file replaced by a link to a file outside: the link is replaced by the file, its target untouched', async () => {
    walled.ws.write('config.json', '{"v":1}');
    const store = walled.open();
    const first = await store.snapshot();
    rmSync(join(walled.ws.root, 'config.json'));
    symlinkSync(join(walled.outside.root, 'secret.txt'), join(walled.ws.root, 'config.json'));
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(store.restore(plan), []);
    assert.ok(isRealFile('config.json'));
    assert.equal(walled.ws.read('config.json'), '{"v":1}');
  });

  test('the same, with the link made after the plan', async () => {
    walled.ws.write('config.json', '{"v":1}');
    const store = walled.open();
    const first = await store.snapshot();
    walled.ws.write('config.json', '{"v":2}');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    rmSync(join(walled.ws.root, 'config.json'));
    symlinkSync(join(walled.outside.root, 'secret.txt'), join(walled.ws.root, 'config.json'));
    store.restore(plan);
    assert.ok(isRealFile('config.json'));
    assert.equal(walled.ws.read('config.json'), '{"v":1}');
  });

  test('a deleted file whose path now runs through a link to outside is not deleted there', async () => {
    walled.ws.write('keep.ts', 'k');
    const store = walled.open();
    const first = await store.snapshot();
    walled.ws.write('gen/e.ts', 'generated');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(plan.deletes, ['gen/e.ts']);
    rmSync(join(walled.ws.root, 'gen'), { recursive: true });
    symlinkSync(walled.outside.root, join(walled.ws.root, 'gen'));
    store.restore(plan);
    assert.equal(readFileSync(join(walled.outside.root, 'e.ts'), 'utf8'), 'outside e');
  });

  test('a link in the checkpoint is restored as a link, never followed', async () => {
    symlinkSync(join(walled.outside.root, 'a.ts'), join(walled.ws.root, 'to-outside'));
    symlinkSync(walled.outside.root, join(walled.ws.root, 'dir-link'));
    walled.ws.write('plain.ts', 'p');
    const store = walled.open();
    const first = await store.snapshot();
    rmSync(join(walled.ws.root, 'to-outside'));
    walled.ws.write('to-outside', 'now a file');
    rmSync(join(walled.ws.root, 'dir-link'));
    walled.ws.write('dir-link/inner.ts', 'now a folder');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(store.restore(plan), []);
    assert.ok(lstatSync(join(walled.ws.root, 'to-outside')).isSymbolicLink());
    assert.equal(readlinkSync(join(walled.ws.root, 'to-outside')), join(walled.outside.root, 'a.ts'));
    assert.ok(lstatSync(join(walled.ws.root, 'dir-link')).isSymbolicLink());
    assert.equal(readlinkSync(join(walled.ws.root, 'dir-link')), walled.outside.root);
  });

  test('a tampered store naming "..", an empty name, a NUL or a path with separators is refused before anything is written, in either listing format', async () => {
    walled.ws.write('a.ts', 'v1');
    const store = walled.open();
    const first = await store.snapshot();
    const content = store.objects.put(Buffer.from('escaped'));
    const inner = store.objects.put(Buffer.from(JSON.stringify([['escaped.txt', 'f', content, 7]])));
    const tamperedRows: TreeRow[][] = [
      [
        ['..', 'd', inner, 0],
        ['a.ts', 'f', content, 7],
      ],
      [['../../escaped.txt', 'f', content, 7]],
      [[`..${'/'}${walled.outside.root.split('/').at(-1)}`, 'd', inner, 0]],
      [['.git', 'd', inner, 0]],
      [['', 'f', content, 7]],
      [['.', 'd', inner, 0]],
      [['a\0.ts', 'f', content, 7]],
    ];
    for (const encode of [(rows: TreeRow[]) => Buffer.from(JSON.stringify(rows)), encodeListing]) {
      for (const rows of tamperedRows) {
        const tampered = store.objects.put(encode(rows));
        await assert.rejects(async () => store.restore(await store.planRestore(tampered, first.root)), /refusing to restore/, JSON.stringify(rows));
      }
    }
    assert.equal(walled.ws.read('a.ts'), 'v1');
    assert.equal(existsSync(join(walled.ws.root, '..', 'escaped.txt')), false);
    assert.throws(
      () => store.restore({ writes: [{ path: `../${walled.outside.root.split('/').at(-1)}/a.ts`, hash: content, mode: 'file' }], deletes: [] }),
      /refusing to restore/,
    );
    assert.throws(() => store.restore({ writes: [], deletes: [join(walled.outside.root, 'a.ts')] }), /refusing to restore/);
  });

  test("a replay's scratch copy of a tampered checkpoint never writes outside it", async () => {
    walled.ws.write('a.ts', 'v1');
    const store = walled.open();
    await store.snapshot();
    const content = store.objects.put(Buffer.from('escaped'));
    const inner = store.objects.put(Buffer.from(JSON.stringify([['secret.txt', 'f', content, 7]])));
    const link = store.objects.put(Buffer.from(walled.outside.root));
    const scratch = createTempWorkspace('smith-links-scratch-');
    try {
      const escaping = store.objects.put(Buffer.from(JSON.stringify([['..', 'd', inner, 0]])));
      assert.throws(() => materializeCheckpoint(store, escaping, join(scratch.root, 'one')), /refusing to restore/);
      for (const name of ['', '.', 'a\0b', 'a/../../b']) {
        const strange = store.objects.put(encodeListing([[name, 'f', content, 7]]));
        assert.throws(() => materializeCheckpoint(store, strange, join(scratch.root, 'strange')), /refusing to restore/, JSON.stringify(name));
      }
      // A listing naming "dir" twice: as a link to outside, and as a folder with a file in it.
      const twice = store.objects.put(
        Buffer.from(
          JSON.stringify([
            ['dir', 'l', link, 0],
            ['dir', 'd', inner, 0],
          ]),
        ),
      );
      materializeCheckpoint(store, twice, join(scratch.root, 'two'));
      assert.equal(readFileSync(join(scratch.root, 'two', 'dir', 'secret.txt'), 'utf8'), 'escaped');
      assert.ok(lstatSync(join(scratch.root, 'two', 'dir')).isDirectory());
    } finally {
      scratch.dispose();
    }
  });

  test('a tampered journal naming a path outside is dropped unrun, and said to be damaged', async () => {
    walled.ws.write('a.ts', 'v1');
    const store = walled.open();
    await store.snapshot();
    const content = store.objects.put(Buffer.from('escaped'));
    const target = `../${walled.outside.root.split('/').at(-1)}/secret.txt`;
    writeFileSync(
      join(store.dir, 'restore-journal.json'),
      JSON.stringify({
        version: 2,
        root: walled.ws.root,
        pid: 0,
        files: [{ path: target, before: 'missing', after: `file:${content}`, hash: content, mode: 'file' }],
      }),
    );
    const recovered = walled.open().recoverInterruptedRestore();
    assert.equal(recovered?.damaged, true);
    assert.equal(existsSync(join(store.dir, 'restore-journal.json')), false);
  });
});
