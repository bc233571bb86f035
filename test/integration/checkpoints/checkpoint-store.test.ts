import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { CheckpointStore } from '../../../src/core/checkpoints/checkpoint-store.js';
import { contentHash } from '../../../src/core/checkpoints/object-store.js';
import { PackReader } from '../../../src/core/checkpoints/pack-file.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
let storage: TempWorkspace;
const open = (maxFileBytes?: number) =>
  new CheckpointStore({ storageDir: storage.root, workspaceRoot: ws.root, ignore: NOTHING_IGNORED, ...(maxFileBytes ? { maxFileBytes } : {}) });
const past = (path: string) => utimesSync(join(ws.root, path), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

/** Every file under `dir` (a .git folder) with its bytes and mtime: equal fingerprints mean untouched. */
function fingerprint(dir: string): string {
  const hash = createHash('sha256');
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const stats = lstatSync(path);
      hash.update(`${path}\0${stats.mode}\0${stats.mtimeMs}\0`);
      if (stats.isDirectory()) walk(path);
      else if (stats.isFile()) hash.update(readFileSync(path));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

beforeEach(() => {
  ws = createTempWorkspace('smith-cp-ws-');
  storage = createTempWorkspace('smith-cp-store-');
});
afterEach(() => {
  ws.dispose();
  storage.dispose();
});

describe('checkpoint store', () => {
  test('restores changed, created and deleted files, the executable bit and symbolic links', async () => {
    ws.write('src/a.ts', 'one\n');
    ws.write('src/b.ts', 'two\n');
    ws.write('run.sh', '#!/bin/sh\necho hi\n');
    chmodSync(join(ws.root, 'run.sh'), 0o755);
    symlinkSync('src/a.ts', join(ws.root, 'link.ts'));
    const store = open();
    const first = await store.snapshot();
    assert.deepEqual(first.changed, ['link.ts', 'run.sh', 'src/a.ts', 'src/b.ts']);

    ws.write('src/a.ts', 'ONE\n');
    rmSync(join(ws.root, 'src/b.ts'));
    ws.write('src/new.ts', 'new\n');
    chmodSync(join(ws.root, 'run.sh'), 0o644);
    rmSync(join(ws.root, 'link.ts'));
    symlinkSync('src/new.ts', join(ws.root, 'link.ts'));
    const second = await store.snapshot();
    assert.deepEqual(second.changed, ['link.ts', 'run.sh', 'src/a.ts', 'src/b.ts', 'src/new.ts']);

    const plan = await store.planRestore(first.root, second.root);
    assert.deepEqual(plan.conflicts, []);
    assert.deepEqual(plan.deletes, ['src/new.ts']);
    assert.deepEqual(
      plan.writes.map((w) => w.path),
      ['link.ts', 'run.sh', 'src/a.ts', 'src/b.ts'],
    );
    assert.deepEqual(store.restore(plan), []);
    assert.equal(ws.read('src/a.ts'), 'one\n');
    assert.equal(ws.read('src/b.ts'), 'two\n');
    assert.equal(existsSync(join(ws.root, 'src/new.ts')), false);
    assert.equal(statSync(join(ws.root, 'run.sh')).mode & 0o111, 0o111);
    assert.equal(readlinkSync(join(ws.root, 'link.ts')), 'src/a.ts');
    assert.deepEqual(readdirSync(join(ws.root, 'src')).sort(), ['a.ts', 'b.ts'], 'no temporary files left');
    assert.equal((await store.snapshot()).root, first.root, 'the workspace is exactly the checkpoint again');
  });

  test('a later snapshot reads only files whose size, mtime or inode changed', async () => {
    ws.write('a.txt', 'aaaa');
    ws.write('b.txt', 'bbbb');
    past('a.txt');
    past('b.txt');
    const store = open();
    const first = await store.snapshot();
    // Same size, same mtime, same inode: the stat cache says unchanged, so the file is not read.
    const mtime = statSync(join(ws.root, 'a.txt')).mtime;
    writeFileSync(join(ws.root, 'a.txt'), 'AAAA');
    utimesSync(join(ws.root, 'a.txt'), mtime, mtime);
    ws.write('b.txt', 'bbbbb');
    const second = await store.snapshot();
    assert.deepEqual(second.changed, ['b.txt']);
    // A new store instance (a restarted Smith) uses the stat cache on disk in the same way.
    store.flushStatCache();
    const reopened = await open().snapshot();
    assert.deepEqual(reopened.changed, []);
    assert.equal(reopened.root, second.root);
    assert.notEqual(first.root, second.root);
  });

  test('honours .gitignore and .smithignore, never enters node_modules or .git, and reports big files once', async () => {
    ws.write('.gitignore', 'build/\n');
    ws.write('.smithignore', 'secrets/\n');
    ws.write('build/out.js', 'x');
    ws.write('secrets/key.txt', 'k');
    ws.write('node_modules/pkg/index.js', 'm');
    ws.write('src/ok.ts', 'ok');
    ws.write('big.bin', Buffer.alloc(2048, 1));
    past('big.bin');
    const store = new CheckpointStore({ storageDir: storage.root, workspaceRoot: ws.root, ignore: await loadSmithIgnore(ws.root), maxFileBytes: 1024 });
    const first = await store.snapshot();
    assert.deepEqual([...store.manifestOf(first.root).keys()].sort(), ['.gitignore', 'src/ok.ts']);
    assert.deepEqual(
      first.skipped.map((s) => s.path),
      ['big.bin'],
    );
    assert.match(first.skipped[0]?.reason ?? '', /larger than 1 KB/);
    assert.deepEqual((await store.snapshot()).skipped, [], 'an unchanged big file is reported once');
    ws.write('big.bin', Buffer.alloc(4096, 2));
    assert.deepEqual(
      (await store.snapshot()).skipped.map((s) => s.path),
      ['big.bin'],
      'and again when it changes',
    );
  });

  test('nested repositories: their files are checkpointed as ordinary files and no .git is ever touched', async () => {
    const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe' });
    ws.write('app.ts', 'app\n');
    git(ws.root, 'init', '-q');
    git(ws.root, 'add', '-A');
    git(ws.root, 'commit', '-qm', 'outer');
    ws.write('vendor/lib/lib.ts', 'lib v1\n');
    git(join(ws.root, 'vendor/lib'), 'init', '-q');
    git(join(ws.root, 'vendor/lib'), 'add', '-A');
    git(join(ws.root, 'vendor/lib'), 'commit', '-qm', 'inner');
    const outerGit = fingerprint(join(ws.root, '.git'));
    const innerGit = fingerprint(join(ws.root, 'vendor/lib/.git'));

    const store = open();
    const first = await store.snapshot();
    assert.ok(store.manifestOf(first.root).has('vendor/lib/lib.ts'));
    assert.ok(![...store.manifestOf(first.root).keys()].some((path) => path.split('/').includes('.git')));
    ws.write('vendor/lib/lib.ts', 'lib v2\n');
    ws.write('app.ts', 'app v2\n');
    const second = await store.snapshot();
    assert.deepEqual(second.changed, ['app.ts', 'vendor/lib/lib.ts']);
    assert.deepEqual(store.restore(await store.planRestore(first.root, second.root)), []);
    assert.equal(ws.read('vendor/lib/lib.ts'), 'lib v1\n');
    assert.equal(fingerprint(join(ws.root, '.git')), outerGit);
    assert.equal(fingerprint(join(ws.root, 'vendor/lib/.git')), innerGit);
    assert.equal(existsSync(join(storage.root, '.git')), false);
  });

  test('a restore over files changed after the latest checkpoint lists them as conflicts', async () => {
    ws.write('a.ts', 'a1');
    ws.write('b.ts', 'b1');
    const store = open();
    const first = await store.snapshot();
    ws.write('a.ts', 'a2 by the agent');
    ws.write('b.ts', 'b2 by the agent');
    const latest = await store.snapshot();
    ws.write('b.ts', 'b3 by the user');
    const plan = await store.planRestore(first.root, latest.root);
    assert.deepEqual(plan.conflicts, ['b.ts']);
    const onlyA = await store.planRestore(first.root, latest.root, ['a.ts']);
    assert.deepEqual(onlyA.conflicts, []);
    assert.deepEqual(
      onlyA.writes.map((w) => w.path),
      ['a.ts'],
    );
  });

  test('garbage collection keeps what live checkpoints use and frees the rest', async () => {
    ws.write('keep.txt', 'kept content');
    const store = open();
    const live = await store.snapshot();
    ws.write('gone.txt', 'x'.repeat(5000));
    const dead = await store.snapshot();
    rmSync(join(ws.root, 'gone.txt'));
    ws.write('third.txt', 'third');
    await store.snapshot(); // the stat cache's snapshot stays alive too
    const before = store.storedSize([live.root, dead.root]);
    const freed = store.collectGarbage([live.root], 0);
    assert.ok(freed > 0, 'something was freed');
    assert.ok(store.objects.has(live.root));
    assert.equal(store.objects.has(dead.root), false);
    assert.ok(store.storedSize([live.root]) < before);
    assert.deepEqual(store.restore(await store.planRestore(live.root, live.root)), []);
    assert.equal(ws.read('keep.txt'), 'kept content');
    assert.equal(existsSync(join(ws.root, 'third.txt')), false);
  });

  test('after a restore the next snapshot is the restored checkpoint, even where only the inode tells the files apart', async () => {
    ws.write('a.ts', 'version 1');
    ws.write('b.ts', 'b');
    past('a.ts');
    past('b.ts');
    const store = open();
    const first = await store.snapshot();
    ws.write('a.ts', 'version 2'); // the same size
    past('a.ts');
    const stamp = statSync(join(ws.root, 'a.ts'));
    rmSync(join(ws.root, 'b.ts'));
    ws.write('c.ts', 'c');
    past('c.ts');
    const latest = await store.snapshot();
    assert.deepEqual(latest.changed, ['a.ts', 'b.ts', 'c.ts']);
    assert.deepEqual(store.restore(await store.planRestore(first.root, latest.root)), []);
    // The restored file (the same size) gets the mtime the scan state holds for the file it replaced.
    utimesSync(join(ws.root, 'a.ts'), stamp.atime, stamp.mtime);
    assert.equal(statSync(join(ws.root, 'a.ts')).mtimeMs, stamp.mtimeMs);
    const after = await store.snapshot();
    assert.equal(after.root, first.root);
    assert.deepEqual(after.changed, ['a.ts', 'b.ts', 'c.ts']);
    assert.equal(ws.read('a.ts'), 'version 1');
  });

  test('a damaged object fails the restore before any file is touched', async () => {
    ws.write('a.ts', 'original');
    const store = open();
    const first = await store.snapshot();
    ws.write('a.ts', 'changed');
    ws.write('b.ts', 'new');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    const hash = plan.writes[0]?.hash ?? '';
    // Its block in the pack that holds it is overwritten with other bytes.
    const packs = join(store.dir, 'packs');
    const key = Buffer.from(hash.slice(0, 32), 'hex');
    const [file, block] = readdirSync(packs)
      .filter((name) => name.endsWith('.pack'))
      .map((name) => [join(packs, name), PackReader.open(join(packs, name)).blockOf(key)] as const)
      .find(([, found]) => found) ?? ['', undefined];
    assert.ok(block);
    const bytes = readFileSync(file);
    bytes.fill(0x55, block.offset, block.offset + block.deflated);
    writeFileSync(file, bytes);
    assert.throws(() => open().restore(plan), /damaged|incorrect header|unexpected end/);
    assert.equal(ws.read('a.ts'), 'changed');
    assert.equal(ws.read('b.ts'), 'new');
  });

  test('objects an earlier version stored one file each (gzipped) are still read, and a damaged one is refused', async () => {
    ws.write('a.ts', 'original');
    const store = open();
    const first = await store.snapshot();
    ws.write('a.ts', 'changed');
    const latest = await store.snapshot();
    // The content again as a single gzipped file under objects/, where the earlier store kept it.
    const content = Buffer.from('kept loose');
    const hash = contentHash(content);
    mkdirSync(join(store.objects.dir, hash.slice(0, 2)), { recursive: true });
    writeFileSync(join(store.objects.dir, hash.slice(0, 2), hash.slice(2)), gzipSync(content));
    const reopened = open();
    assert.ok(reopened.objects.has(hash));
    assert.equal(reopened.objects.get(hash).toString(), 'kept loose');
    const plan = await reopened.planRestore(first.root, latest.root);
    const write = plan.writes.find((w) => w.path === 'a.ts');
    assert.ok(write);
    mkdirSync(join(store.objects.dir, write.hash.slice(0, 2)), { recursive: true });
    writeFileSync(join(store.objects.dir, write.hash.slice(0, 2), write.hash.slice(2)), 'not gzip');
    assert.throws(() => open().restore(plan), /damaged/);
    assert.equal(ws.read('a.ts'), 'changed');
  });

  test('an interrupted restore of an older journal (no before states) is finished when the store is opened again', async () => {
    ws.write('a.ts', 'v1');
    ws.write('b.ts', 'v1');
    const store = open();
    const first = await store.snapshot();
    ws.write('a.ts', 'v2');
    ws.write('b.ts', 'v2');
    ws.write('c.ts', 'v2');
    const latest = await store.snapshot();
    const plan = await store.planRestore(first.root, latest.root);
    // The state a crash right after the journal was written leaves: journal present, a temp file beside a.ts.
    writeFileSync(join(store.dir, 'restore-journal.json'), JSON.stringify({ root: ws.root, writes: plan.writes, deletes: plan.deletes }));
    writeFileSync(join(ws.root, '.a.ts.smith-restore'), 'v');
    const recovered = open().recoverInterruptedRestore();
    assert.deepEqual(recovered, { root: ws.root, finished: ['c.ts', 'a.ts', 'b.ts'], alreadyDone: 0, leftAlone: [], failures: [] });
    assert.equal(ws.read('a.ts'), 'v1');
    assert.equal(ws.read('b.ts'), 'v1');
    assert.equal(existsSync(join(ws.root, 'c.ts')), false);
    assert.equal(existsSync(join(ws.root, '.a.ts.smith-restore')), false);
    assert.equal(existsSync(join(store.dir, 'restore-journal.json')), false);
    assert.equal(open().recoverInterruptedRestore(), undefined);
  });
});
