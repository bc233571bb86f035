// The incremental scan behind each checkpoint: listings of unchanged folders are reused, ignore
// verdicts are remembered while the rules stay the same, the stat cache is reloaded from disk,
// and none of it changes what a snapshot holds (each is checked against a scan from scratch).
import assert from 'node:assert/strict';
import { lstatSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { CheckpointStore } from '../../../src/core/checkpoints/checkpoint-store.js';
import { ObjectStore } from '../../../src/core/checkpoints/object-store.js';
import { decodeStatCache } from '../../../src/core/checkpoints/stat-cache-file.js';
import { readListing } from '../../../src/core/checkpoints/tree-objects.js';
import { changedPaths, takeSnapshot } from '../../../src/core/checkpoints/workspace-snapshot.js';
import { listWorkspaceFiles } from '../../../src/core/workspace/file-listing.js';
import type { IgnorePolicy } from '../../../src/core/workspace/ignore-policy.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
let storage: TempWorkspace;
const open = (ignore: IgnorePolicy = NOTHING_IGNORED, storageDir = storage.root) => new CheckpointStore({ storageDir, workspaceRoot: ws.root, ignore });
const past = (path: string, secondsAgo = 60) =>
  utimesSync(join(ws.root, path), new Date(Date.now() - secondsAgo * 1000), new Date(Date.now() - secondsAgo * 1000));
const objectCount = (store: CheckpointStore) => store.objects.count();
/** The root listing of a snapshot, by name: [kind, hash]. */
const rootListing = (store: CheckpointStore, root: string) => new Map(readListing(store.objects, root).map(([name, kind, hash]) => [name, [kind, hash]]));

/** The root a scan from scratch (a store with no stat cache and no previous scan) gives for the workspace as it is now. */
async function rootFromScratch(ignore: IgnorePolicy = NOTHING_IGNORED): Promise<string> {
  const elsewhere = createTempWorkspace('smith-cp-scratch-');
  try {
    return (await open(ignore, elsewhere.root).snapshot()).root;
  } finally {
    elsewhere.dispose();
  }
}

/** What list_files shows as files (links to folders included, folders not). */
async function listedFiles(ignore: IgnorePolicy): Promise<string[]> {
  const listing = await listWorkspaceFiles({ root: ws.root, dir: ws.root, recursive: true, limit: Number.POSITIVE_INFINITY, ignore });
  return listing.entries
    .filter((entry) => !entry.endsWith('/') || entry === 'link-to-src/')
    .map((entry) => entry.replace(/\/$/, ''))
    .sort();
}

beforeEach(() => {
  ws = createTempWorkspace('smith-cp-scan-');
  storage = createTempWorkspace('smith-cp-scan-store-');
});
afterEach(() => {
  ws.dispose();
  storage.dispose();
});

describe('incremental checkpoint scan', () => {
  test('keeps exactly the files list_files shows, and follows the ignore rules when they change', async () => {
    for (const file of ['README.md', 'a.log', 'build/a.js', 'src/y.ts', 'src/x.generated.ts', 'src/gen/z.ts', 'src/gen/w.ts', 'src/gen/w.log'])
      ws.write(file, 'x\n');
    for (const file of ['src/deep/secret2.ts', 'src/deep/secret3.ts', 'excluded.txt', 'private/key.txt', 'node_modules/m/index.js', '.git/config'])
      ws.write(file, 'x\n');
    ws.write('.gitignore', 'build/\n*.log\nsrc/*.generated.ts\nsecret*\ngen/\n');
    ws.write('src/.gitignore', '!gen/\n');
    ws.write('src/gen/.gitignore', '*.ts\n!z.ts\n');
    ws.write('src/deep/.gitignore', '!secret2.ts\n');
    ws.write('.git/info/exclude', 'excluded.txt\n');
    ws.write('.smithignore', 'private/\n');
    symlinkSync('src', join(ws.root, 'link-to-src'));
    const ignore = await loadSmithIgnore(ws.root);
    const store = open(ignore);
    const first = await store.snapshot();
    const firstFiles = [...store.manifestOf(first.root).keys()].sort();
    assert.deepEqual(firstFiles, await listedFiles(ignore));
    assert.ok(firstFiles.includes('src/gen/w.log'), 'a re-included folder is judged without the rule file that excluded it');

    // Every kind of rule changes; the remembered verdicts must not outlive the rules they came from.
    ws.write('.gitignore', 'build/\nsecret*\ngen/\n');
    ws.write('src/gen/.gitignore', '*.ts\n');
    ws.write('src/deep/.gitignore', '');
    ws.write('.git/info/exclude', 'README.md\n');
    const second = await store.snapshot();
    const secondFiles = [...store.manifestOf(second.root).keys()].sort();
    assert.deepEqual(secondFiles, await listedFiles(ignore));
    assert.deepEqual(second.changed, changedPaths(store.manifestOf(first.root), store.manifestOf(second.root)));
    assert.deepEqual(second.changed, [
      '.gitignore',
      'README.md',
      'a.log',
      'excluded.txt',
      'src/deep/.gitignore',
      'src/deep/secret2.ts',
      'src/gen/.gitignore',
      'src/gen/z.ts',
      'src/x.generated.ts',
    ]);
    assert.equal(second.root, await rootFromScratch(ignore));
  });

  test('an unchanged folder keeps its listing, a change deep below is noticed, and the result is a scan from scratch', async () => {
    for (const file of ['a/b/c/d/deep.ts', 'a/b/c/d/other.ts', 'a/b/c/sibling.ts', 'a/top.ts', 'z/side/s.ts', 'z/t.ts']) {
      ws.write(file, `${file}\n`);
      past(file);
    }
    const store = open();
    const first = await store.snapshot();
    const stored = objectCount(store);
    assert.deepEqual(await store.snapshot(), { root: first.root, changed: [], skipped: [] });
    assert.equal(objectCount(store), stored, 'nothing changed: nothing written');

    ws.write('a/b/c/d/deep.ts', 'changed deep below\n');
    const second = await store.snapshot();
    assert.deepEqual(second.changed, ['a/b/c/d/deep.ts']);
    // The new content and the five listings on its path (d, c, b, a and the root), nothing else.
    assert.equal(objectCount(store), stored + 6);
    assert.deepEqual(rootListing(store, second.root).get('z'), rootListing(store, first.root).get('z'), 'the unchanged folder keeps its listing');
    assert.notDeepEqual(rootListing(store, second.root).get('a'), rootListing(store, first.root).get('a'));
    assert.equal(store.contentAt(second.root, 'a/b/c/d/deep.ts')?.toString(), 'changed deep below\n');
    assert.equal(store.contentAt(second.root, 'z/side/s.ts')?.toString(), 'z/side/s.ts\n');
    assert.equal(second.root, await rootFromScratch());

    // Removing the only file of a folder removes the folder's listing; a new folder adds one.
    rmSync(join(ws.root, 'z/side/s.ts'));
    ws.write('new/folder/n.ts', 'n\n');
    const third = await store.snapshot();
    assert.deepEqual(third.changed, ['new/folder/n.ts', 'z/side/s.ts']);
    assert.equal(third.root, await rootFromScratch());
  });

  test('a file rewritten with the same size and mtime right after a scan is read again (racily clean)', async () => {
    ws.write('a/b/c/racy.ts', 'before\n');
    ws.write('a/b/settled.ts', 'settled\n');
    past('a/b/settled.ts');
    const store = open();
    await store.snapshot();
    const mtime = new Date(Date.now() - 500);
    utimesSync(join(ws.root, 'a/b/c/racy.ts'), mtime, mtime);
    const seen = await store.snapshot(); // racy.ts changed less than 2 s before this scan
    writeFileSync(join(ws.root, 'a/b/c/racy.ts'), 'AFTER!\n');
    utimesSync(join(ws.root, 'a/b/c/racy.ts'), mtime, mtime); // same size, same mtime, same inode
    const next = await store.snapshot();
    assert.deepEqual(next.changed, ['a/b/c/racy.ts']);
    assert.notEqual(next.root, seen.root);
    assert.equal(store.contentAt(next.root, 'a/b/c/racy.ts')?.toString(), 'AFTER!\n');
  });

  test('a folder that is removed, renamed or newly ignored reports every file below it', async () => {
    for (const file of ['keep.ts', 'gone/x/1.ts', 'gone/2.ts', 'moved/3.ts', 'later-ignored/4.ts']) ws.write(file, `${file}\n`);
    const store = open();
    await store.snapshot();
    rmSync(join(ws.root, 'gone'), { recursive: true });
    renameSync(join(ws.root, 'moved'), join(ws.root, 'renamed'));
    ws.write('.gitignore', 'later-ignored/\n');
    const next = await store.snapshot();
    assert.deepEqual(next.changed, ['.gitignore', 'gone/2.ts', 'gone/x/1.ts', 'later-ignored/4.ts', 'moved/3.ts', 'renamed/3.ts']);
    assert.equal(next.root, await rootFromScratch());
  });

  test('the stat cache on disk: a reopened store reads no unchanged file and still notices a deep change', async () => {
    for (let i = 0; i < 40; i++) {
      ws.write(`p${i % 4}/q${i % 5}/f${i}.ts`, `file ${i}\n`);
      past(`p${i % 4}/q${i % 5}/f${i}.ts`);
    }
    const store = open();
    const first = await store.snapshot();
    store.flushStatCache();
    const objects = new ObjectStore(store.objects.dir);
    const reopened = open();
    const again = await reopened.snapshot();
    assert.deepEqual(again, { root: first.root, changed: [], skipped: [] });
    ws.write('p1/q1/f1.ts', 'changed\n');
    past('p1/q1/f1.ts'); // not racily clean: the scans below may trust its stat
    assert.deepEqual((await reopened.snapshot()).changed, ['p1/q1/f1.ts']);
    assert.equal((await reopened.snapshot()).root, await rootFromScratch());
    // The same through takeSnapshot: the cache spares every read but the changed file's.
    const scanned = await takeSnapshot(objects, { root: ws.root, ignore: NOTHING_IGNORED, maxFileBytes: 1 << 20 });
    const rescanned = await takeSnapshot(objects, { root: ws.root, ignore: NOTHING_IGNORED, maxFileBytes: 1 << 20, previous: scanned.state });
    assert.equal(scanned.filesRead, 40);
    assert.equal(rescanned.filesRead, 0);
    assert.equal(rescanned.statsChanged, false);
    assert.equal(rescanned.root, scanned.root);
  });

  test('a stat cache file of the earlier format is still used, and a damaged one only costs reading again', async () => {
    for (let i = 0; i < 12; i++) {
      ws.write(`d${i % 3}/f${i}.ts`, `file ${i}\n`);
      past(`d${i % 3}/f${i}.ts`);
    }
    const store = open();
    const first = await store.snapshot();
    const files = [...store.manifestOf(first.root)].map(([path, e]) => {
      const stats = lstatSync(join(ws.root, path));
      return [path, e.hash, e.mode, e.size, stats.mtimeMs, stats.ino];
    });
    const earlier = decodeStatCache(JSON.stringify({ root: first.root, files, skipped: [] }));
    const objects = new ObjectStore(store.objects.dir);
    const fromEarlier = await takeSnapshot(objects, { root: ws.root, ignore: NOTHING_IGNORED, maxFileBytes: 1 << 20, previous: earlier.state });
    assert.deepEqual([fromEarlier.root, fromEarlier.filesRead, fromEarlier.changed], [first.root, 0, []]);

    writeFileSync(join(store.dir, 'stat-cache.json'), '{"version":2,"root":"');
    assert.deepEqual(await open().snapshot(), { root: first.root, changed: [...store.manifestOf(first.root).keys()].sort(), skipped: [] });
  });

  test('garbage collection keeps the snapshot the store took last, which the next scan builds on', async () => {
    ws.write('a.txt', 'a');
    ws.write('b/b.txt', 'b1');
    past('a.txt');
    const store = open();
    await store.snapshot(); // written to the stat cache on disk
    ws.write('b/b.txt', 'b2 is only in the latest snapshot');
    past('b/b.txt');
    const latest = await store.snapshot(); // kept in memory only
    store.collectGarbage([], 0);
    const next = await store.snapshot();
    assert.equal(next.root, latest.root);
    assert.equal(store.contentAt(next.root, 'b/b.txt')?.toString(), 'b2 is only in the latest snapshot');
  });

  test('thousands of files: stats taken on helper threads find exactly the changes, and a scan aborted before it starts or while writing listings loses none', async () => {
    const name = (i: number) => `pkg-${i % 7}/dir-${i % 13}/file-${i}.ts`;
    for (let i = 0; i < 5000; i++) ws.write(name(i), `export const v${i} = ${i};\n`);
    const store = open();
    const first = await store.snapshot();
    assert.equal(store.manifestOf(first.root).size, 5000);
    ws.write(name(17), 'changed\n');
    ws.write(name(4711), 'changed too\n');
    rmSync(join(ws.root, name(999)));
    ws.write('pkg-3/new.ts', 'new\n');
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(store.snapshot(aborted.signal), { name: 'AbortError' });
    // Given up on while listings are being written (the first listing stored says so) and the
    // helpers may still be reading: the next scan still finds exactly the changes.
    const midway = new AbortController();
    const putHashed = store.objects.putHashed.bind(store.objects);
    let listingsPut = 0;
    store.objects.putHashed = (hash, bytes, base) => {
      if (bytes[0] === 0 && ++listingsPut === 3) midway.abort();
      return putHashed(hash, bytes, base);
    };
    await assert.rejects(store.snapshot(midway.signal), { name: 'AbortError' });
    store.objects.putHashed = putHashed;
    assert.equal(listingsPut, 3, 'aborted while writing listings');
    const second = await store.snapshot();
    assert.deepEqual(second.changed, [name(17), name(4711), name(999), 'pkg-3/new.ts'].sort());
    assert.equal(second.root, await rootFromScratch());
  });
});
