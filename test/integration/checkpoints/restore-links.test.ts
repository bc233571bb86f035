import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { CheckpointStore } from '../../../src/core/checkpoints/checkpoint-store.js';
import { materializeCheckpoint } from '../../../src/core/replay/scratch-workspace.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { folderFingerprint } from '../../helpers/folder-fingerprint.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

// An attacker (or an accident) puts symbolic links where the checkpoint has folders and files,
// or tampers with the store: a restore must never write, delete or create anything outside the
// workspace. `outside` is a sentinel folder whose fingerprint must not change.
let ws: TempWorkspace;
let storage: TempWorkspace;
let outside: TempWorkspace;
let sentinel: string;
const open = () => new CheckpointStore({ storageDir: storage.root, workspaceRoot: ws.root, ignore: NOTHING_IGNORED });

beforeEach(() => {
  ws = createTempWorkspace('smith-links-ws-');
  storage = createTempWorkspace('smith-links-store-');
  outside = createTempWorkspace('smith-links-outside-');
  outside.write('a.ts', 'outside a');
  outside.write('secret.txt', 'outside secret');
  outside.write('e.ts', 'outside e');
  outside.write('deep/b.ts', 'outside b');
  sentinel = folderFingerprint(outside.root);
});
afterEach(() => {
  assert.equal(folderFingerprint(outside.root), sentinel, 'nothing outside the workspace changed');
  ws.dispose();
  storage.dispose();
  outside.dispose();
});

const isRealFolder = (rel: string) => {
  const stats = lstatSync(join(ws.root, rel));
  return stats.isDirectory() && !stats.isSymbolicLink();
};
const isRealFile = (rel: string) => lstatSync(join(ws.root, rel)).isFile();

describe('a restore never writes through a symbolic link', () => {
  test('a top-level folder replaced by a link to a folder outside: the link is removed and a real folder restored', async () => {
    ws.write('src/a.ts', 'v1');
    ws.write('src/deep/b.ts', 'b1');
    const store = open();
    const first = await store.snapshot();
    rmSync(join(ws.root, 'src'), { recursive: true });
    symlinkSync(outside.root, join(ws.root, 'src'));
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(store.restore(plan), []);
    assert.ok(isRealFolder('src'));
    assert.ok(isRealFolder('src/deep'));
    assert.equal(ws.read('src/a.ts'), 'v1');
    assert.equal(ws.read('src/deep/b.ts'), 'b1');
  });

  test('a folder replaced by a link after the plan was made (the race): still never written through', async () => {
    ws.write('src/a.ts', 'v1');
    const store = open();
    const first = await store.snapshot();
    ws.write('src/a.ts', 'v2');
    ws.write('src/new.ts', 'new');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(
      plan.writes.map((w) => w.path),
      ['src/a.ts'],
    );
    assert.deepEqual(plan.deletes, ['src/new.ts']);
    // Swapped between the plan and the restore.
    rmSync(join(ws.root, 'src'), { recursive: true });
    symlinkSync(outside.root, join(ws.root, 'src'));
    store.restore(plan);
    assert.ok(isRealFolder('src'));
    assert.equal(ws.read('src/a.ts'), 'v1');
    assert.equal(existsSync(join(ws.root, 'src/new.ts')), false);
  });

  test('a link in the middle of a deep path', async () => {
    ws.write('a/b/c/d/e.ts', 'e1');
    ws.write('a/b/c/keep.ts', 'k1');
    const store = open();
    const first = await store.snapshot();
    rmSync(join(ws.root, 'a/b'), { recursive: true });
    symlinkSync(outside.root, join(ws.root, 'a/b'));
    // outside has no c/d, but a restore that follows the link would create outside/c/d/e.ts.
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(store.restore(plan), []);
    assert.ok(isRealFolder('a/b'));
    assert.ok(isRealFolder('a/b/c/d'));
    assert.equal(ws.read('a/b/c/d/e.ts'), 'e1');
    assert.equal(ws.read('a/b/c/keep.ts'), 'k1');
    assert.equal(existsSync(join(outside.root, 'c')), false);
  });

  test('a deep link swapped in after the plan, pointing at a folder that has the same file names', async () => {
    ws.write('a/b/deep/b.ts', 'mine v1');
    const store = open();
    const first = await store.snapshot();
    ws.write('a/b/deep/b.ts', 'mine v2');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    rmSync(join(ws.root, 'a/b'), { recursive: true });
    symlinkSync(outside.root, join(ws.root, 'a/b'));
    store.restore(plan);
    assert.equal(readFileSync(join(outside.root, 'deep/b.ts'), 'utf8'), 'outside b');
    assert.ok(isRealFolder('a/b/deep'));
    assert.equal(ws.read('a/b/deep/b.ts'), 'mine v1');
  });

  test('a file replaced by a link to a file outside: the link is replaced by the file, its target untouched', async () => {
    ws.write('config.json', '{"v":1}');
    const store = open();
    const first = await store.snapshot();
    rmSync(join(ws.root, 'config.json'));
    symlinkSync(join(outside.root, 'secret.txt'), join(ws.root, 'config.json'));
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(store.restore(plan), []);
    assert.ok(isRealFile('config.json'));
    assert.equal(ws.read('config.json'), '{"v":1}');
  });

  test('the same, with the link made after the plan', async () => {
    ws.write('config.json', '{"v":1}');
    const store = open();
    const first = await store.snapshot();
    ws.write('config.json', '{"v":2}');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    rmSync(join(ws.root, 'config.json'));
    symlinkSync(join(outside.root, 'secret.txt'), join(ws.root, 'config.json'));
    store.restore(plan);
    assert.ok(isRealFile('config.json'));
    assert.equal(ws.read('config.json'), '{"v":1}');
  });

  test('a deleted file whose path now runs through a link to outside is not deleted there', async () => {
    ws.write('keep.ts', 'k');
    const store = open();
    const first = await store.snapshot();
    ws.write('gen/e.ts', 'generated');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(plan.deletes, ['gen/e.ts']);
    rmSync(join(ws.root, 'gen'), { recursive: true });
    symlinkSync(outside.root, join(ws.root, 'gen'));
    store.restore(plan);
    assert.equal(readFileSync(join(outside.root, 'e.ts'), 'utf8'), 'outside e');
  });

  test('a link in the checkpoint is restored as a link, never followed', async () => {
    symlinkSync(join(outside.root, 'a.ts'), join(ws.root, 'to-outside'));
    symlinkSync(outside.root, join(ws.root, 'dir-link'));
    ws.write('plain.ts', 'p');
    const store = open();
    const first = await store.snapshot();
    rmSync(join(ws.root, 'to-outside'));
    ws.write('to-outside', 'now a file');
    rmSync(join(ws.root, 'dir-link'));
    ws.write('dir-link/inner.ts', 'now a folder');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(store.restore(plan), []);
    assert.ok(lstatSync(join(ws.root, 'to-outside')).isSymbolicLink());
    assert.equal(readlinkSync(join(ws.root, 'to-outside')), join(outside.root, 'a.ts'));
    assert.ok(lstatSync(join(ws.root, 'dir-link')).isSymbolicLink());
    assert.equal(readlinkSync(join(ws.root, 'dir-link')), outside.root);
  });

  test('a tampered store naming ".." or a path with separators is refused before anything is written', async () => {
    ws.write('a.ts', 'v1');
    const store = open();
    const first = await store.snapshot();
    const content = store.objects.put(Buffer.from('escaped'));
    const inner = store.objects.put(Buffer.from(JSON.stringify([['escaped.txt', 'f', content, 7]])));
    for (const rows of [
      [
        ['..', 'd', inner, 0],
        ['a.ts', 'f', content, 7],
      ],
      [['../../escaped.txt', 'f', content, 7]],
      [[`..${'/'}${outside.root.split('/').at(-1)}`, 'd', inner, 0]],
      [['.git', 'd', inner, 0]],
    ]) {
      const tampered = store.objects.put(Buffer.from(JSON.stringify(rows)));
      await assert.rejects(async () => store.restore(await store.planRestore(tampered, first.root)), /refusing to restore/);
    }
    assert.equal(ws.read('a.ts'), 'v1');
    assert.equal(existsSync(join(ws.root, '..', 'escaped.txt')), false);
    assert.throws(
      () => store.restore({ writes: [{ path: `../${outside.root.split('/').at(-1)}/a.ts`, hash: content, mode: 'file' }], deletes: [] }),
      /refusing to restore/,
    );
    assert.throws(() => store.restore({ writes: [], deletes: [join(outside.root, 'a.ts')] }), /refusing to restore/);
  });

  test("a replay's scratch copy of a tampered checkpoint never writes outside it", async () => {
    ws.write('a.ts', 'v1');
    const store = open();
    await store.snapshot();
    const content = store.objects.put(Buffer.from('escaped'));
    const inner = store.objects.put(Buffer.from(JSON.stringify([['secret.txt', 'f', content, 7]])));
    const link = store.objects.put(Buffer.from(outside.root));
    const scratch = createTempWorkspace('smith-links-scratch-');
    try {
      const escaping = store.objects.put(Buffer.from(JSON.stringify([['..', 'd', inner, 0]])));
      assert.throws(() => materializeCheckpoint(store, escaping, join(scratch.root, 'one')), /refusing to restore/);
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
    ws.write('a.ts', 'v1');
    const store = open();
    await store.snapshot();
    const content = store.objects.put(Buffer.from('escaped'));
    const target = `../${outside.root.split('/').at(-1)}/secret.txt`;
    writeFileSync(
      join(store.dir, 'restore-journal.json'),
      JSON.stringify({
        version: 2,
        root: ws.root,
        pid: 0,
        files: [{ path: target, before: 'missing', after: `file:${content}`, hash: content, mode: 'file' }],
      }),
    );
    const recovered = open().recoverInterruptedRestore();
    assert.equal(recovered?.damaged, true);
    assert.equal(existsSync(join(store.dir, 'restore-journal.json')), false);
  });
});
