// The stats and reads behind a checkpoint scan, taken on helper threads for big workspaces: the
// same answers as lstat and readFileSync on the main thread, in the order the paths were given,
// whatever happens to a helper or a file meanwhile.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setImmediate } from 'node:timers/promises';
import { KIND, READ, ScanHelpers, ScanQueue, STAT_FIELDS } from '../../../src/core/checkpoints/parallel-scan.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';

const ws = createTempWorkspace('smith-cp-lstat-');
after(() => ws.dispose());

function expected(path: string): number[] {
  let stats: ReturnType<typeof lstatSync> | undefined;
  try {
    stats = lstatSync(path);
  } catch {
    return [KIND.missing];
  }
  const kind = stats.isSymbolicLink() ? KIND.link : !stats.isFile() ? KIND.other : stats.mode & 0o111 ? KIND.exec : KIND.file;
  return [kind, stats.size, stats.mtimeMs, stats.ino];
}

async function statAll(paths: readonly string[]): Promise<Float64Array> {
  const queue = new ScanQueue();
  for (const path of paths) queue.push(path);
  return queue.finish();
}

test('a few paths or thousands: every kind of entry statted as lstat sees it, in order', async () => {
  const paths: string[] = [];
  for (let d = 0; d < 11; d++) mkdirSync(join(ws.root, `d${d}`));
  for (let i = 0; i < 6000; i++) {
    const path = join(ws.root, `d${i % 11}`, `f${i}`);
    switch (i % 6) {
      case 0:
        paths.push(ws.write(`d${i % 11}/f${i}`, 'x'.repeat(i % 50)));
        break;
      case 1:
        paths.push(ws.write(`d${i % 11}/f${i}`, 'run'));
        chmodSync(path, 0o755);
        break;
      case 2:
        symlinkSync(`f${i - 2}`, path);
        paths.push(path);
        break;
      case 3:
        mkdirSync(path, { recursive: true });
        paths.push(path);
        break;
      case 4:
        paths.push(`${path}-missing`);
        break;
      default:
        paths.push(join(ws.root, `d${i % 11}`, `f${i - 5}`, 'not-a-folder'));
    }
  }
  for (const some of [paths.slice(0, 10), paths]) {
    const result = await statAll(some);
    assert.equal(result.length, some.length * STAT_FIELDS);
    some.forEach((path, i) => {
      const want = expected(path);
      const got = [...result.subarray(i * STAT_FIELDS, i * STAT_FIELDS + want.length)];
      assert.deepEqual(got, want, path);
    });
  }
  assert.equal((await statAll([])).length, 0);
});

test('an aborted queue rejects, and the next one is whole', async () => {
  const paths = Array.from({ length: 5000 }, (_, i) => ws.write(`abort/f${i}`, `${i}`));
  const queue = new ScanQueue();
  for (const path of paths) queue.push(path);
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(queue.finish(controller.signal), { name: 'AbortError' });
  const result = await statAll(paths);
  for (const [i, path] of paths.entries()) assert.equal(result[i * STAT_FIELDS + 3], lstatSync(path).ino);
});

/** A reading queue on helpers of its own (so a test that ends them leaves the shared ones alone) and what it handed on. */
function readingQueue(helpers: ScanHelpers, maxBytes = 1024) {
  const taken = new Map<string, Buffer[]>();
  const queue = new ScanQueue(
    {
      maxBytes,
      take: (hash, content) => {
        const copies = taken.get(hash) ?? [];
        copies.push(Buffer.from(content));
        taken.set(hash, copies);
      },
    },
    helpers,
  );
  return { queue, taken };
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Every regular file within the limit that is not as `previous` says was read, hashed and handed on with its exact content. */
function assertRead(
  queue: ScanQueue,
  result: Float64Array,
  paths: readonly string[],
  taken: Map<string, Buffer[]>,
  unchanged: ReadonlySet<string>,
  maxBytes: number,
) {
  paths.forEach((path, i) => {
    if (unchanged.has(path) && !existsSync(path)) return; // removed by the test on purpose
    const at = i * STAT_FIELDS;
    const want = expected(path);
    assert.deepEqual([...result.subarray(at, at + want.length)], want, path);
    const isFile = want[0] === KIND.file || want[0] === KIND.exec;
    const shouldRead = isFile && (want[1] as number) <= maxBytes && !unchanged.has(path);
    assert.equal(result[at + 4], shouldRead ? READ.done : READ.none, `${path}: read ${result[at + 4]}`);
    if (!shouldRead) return;
    const content = readFileSync(path);
    assert.equal(queue.hashOf(i), sha256(content), path);
    assert.ok(
      taken.get(sha256(content))?.every((copy) => copy.equals(content)),
      `${path}: the content handed on`,
    );
  });
}

test('reading: every new or changed regular file within the limit is read and hashed once, on the helpers and here alike', async () => {
  const helpers = new ScanHelpers(2);
  const paths: string[] = [];
  const unchanged = new Set<string>();
  const { queue, taken } = readingQueue(helpers);
  for (let i = 0; i < 7000; i++) {
    const rel = `read/d${i % 13}/f${i}`;
    let path: string;
    switch (i % 7) {
      case 0:
        path = ws.write(rel, `content ${i}\n`.repeat(i % 40));
        break;
      case 1:
        path = ws.write(rel, `#!/bin/sh\necho ${i}\n`);
        chmodSync(path, 0o755);
        break;
      case 2:
        path = ws.write(rel, 'x'.repeat(1025 + (i % 5))); // over the limit: stat only
        break;
      case 3:
        path = join(ws.root, rel);
        mkdirSync(join(ws.root, `read/d${i % 13}`), { recursive: true });
        symlinkSync(`f${i - 3}`, path);
        break;
      case 4:
        path = join(ws.root, rel, 'missing');
        break;
      default:
        path = ws.write(rel, `same ${i % 3}`); // equal contents: one object, handed on at least once
    }
    paths.push(path);
    const stats = lstatSync(path, { throwIfNoEntry: false });
    // Every third regular file is as the previous scan saw it (not read); every fifth was seen with another mtime (read).
    const previous = stats?.isFile() && i % 3 === 0 ? { size: stats.size, mtimeMs: stats.mtimeMs - (i % 5 === 0 ? 1 : 0), ino: stats.ino } : undefined;
    if (previous && i % 5 !== 0) unchanged.add(path);
    queue.push(path, stats?.isFile() ?? false, stats && stats.mode & 0o111 ? KIND.exec : KIND.file, previous);
  }
  const result = await queue.finish();
  assertRead(queue, result, paths, taken, unchanged, 1024);
  // The same on the main thread alone (a small workspace never starts a helper).
  const few = paths.slice(0, 70);
  const small = readingQueue(helpers);
  for (const path of few) small.queue.push(path, lstatSync(path, { throwIfNoEntry: false })?.isFile() ?? false);
  assertRead(small.queue, await small.queue.finish(), few, small.taken, new Set(), 1024);
  await helpers.stop();
});

test('a helper ended mid-batch: the main thread scans what it left, and nothing is lost or wrong', async () => {
  const helpers = new ScanHelpers(1);
  const paths = Array.from({ length: 12_000 }, (_, i) => ws.write(`killed/d${i % 50}/f${i}`, `file ${i}\n`.repeat(1 + (i % 7))));
  const { queue, taken } = readingQueue(helpers);
  for (const path of paths) queue.push(path, true);
  // Wait until the helper has sent some of what it read, then end it under its feet.
  while (taken.size === 0) await setImmediate();
  await helpers.stop();
  const result = await queue.finish();
  assertRead(queue, result, paths, taken, new Set(), 1024);
  // Ended helpers stay ended: the next scan runs on the main thread, whole.
  const again = readingQueue(helpers);
  for (const path of paths) again.queue.push(path, true);
  assertRead(again.queue, await again.queue.finish(), paths, again.taken, new Set(), 1024);
});

test('step by step from both ends: the done ends only grow, done paths have their numbers, and a helper ended midway loses nothing', async () => {
  const helpers = new ScanHelpers(1);
  const paths = Array.from({ length: 12_000 }, (_, i) => ws.write(`steps/d${i % 50}/f${i}`, `file ${i}\n`.repeat(1 + (i % 7))));
  const { queue, taken } = readingQueue(helpers);
  for (const path of paths) queue.push(path, true);
  queue.end();
  let prefixEnd = 0;
  let suffixStart = paths.length;
  let steps = 0;
  for (let progress = await queue.advance(); ; progress = await queue.advance()) {
    // When all is done both ends are the last path.
    assert.ok(progress.prefixEnd >= prefixEnd && (progress.finished || progress.suffixStart <= suffixStart), 'a done end moved back');
    ({ prefixEnd, suffixStart } = progress);
    // Done paths have their numbers: a regular file of this size, read.
    for (const i of [prefixEnd - 1, suffixStart]) if (i >= 0 && i < paths.length) assert.equal(queue.stats[i * STAT_FIELDS + 4], READ.done, `path ${i}`);
    if (++steps === 2) await helpers.stop(); // this thread takes over whatever the helper left
    if (progress.finished) break;
  }
  assert.equal(prefixEnd, paths.length);
  assertRead(queue, queue.stats, paths, taken, new Set(), 1024);
});

test('files that vanish, turn into a FIFO or cannot be read are never hung on, and are left for the main thread to judge', async () => {
  const helpers = new ScanHelpers(1);
  const paths = Array.from({ length: 3000 }, (_, i) => ws.write(`vanish/f${i}`, `v${i}`));
  const { queue, taken } = readingQueue(helpers);
  for (const path of paths) queue.push(path, true);
  // Listed as files, then gone or replaced before they are opened.
  const gone = paths[10] as string;
  const fifo = paths[2500] as string;
  rmSync(gone);
  rmSync(fifo);
  spawnSync('mkfifo', [fifo]);
  // A regular file whose read fails (EIO): /proc/self/mem at offset 0.
  queue.push('/proc/self/mem', true);
  const result = await queue.finish();
  assert.equal(result[10 * STAT_FIELDS], KIND.missing);
  assert.equal(result[10 * STAT_FIELDS + 4], READ.none);
  assert.equal(result[2500 * STAT_FIELDS], KIND.other);
  assert.equal(result[2500 * STAT_FIELDS + 4], READ.none);
  const mem = paths.length * STAT_FIELDS;
  assert.equal(result[mem], KIND.file);
  assert.equal(result[mem + 4], READ.again, 'an unreadable file is read again, the ordinary way, by the main thread');
  assertRead(
    queue,
    result.subarray(0, mem),
    paths.map((path) => (path === fifo ? gone : path)),
    taken,
    new Set([gone]),
    1024,
  );
  await helpers.stop();
});

test('helpers never keep the process alive: a scan run by a script exits on its own', async () => {
  const script = join(ws.root, 'scan-and-exit.ts');
  writeFileSync(
    script,
    `import { ScanQueue } from ${JSON.stringify(join(__dirname, '../../../src/core/checkpoints/parallel-scan.ts'))};
const queue = new ScanQueue({ maxBytes: 1024, take: () => undefined });
for (let i = 0; i < 6000; i++) queue.push(${JSON.stringify(join(ws.root, 'exit'))} + '/f' + (i % 100), true);
queue.finish().then((result) => process.stdout.write('scanned ' + result.length / 5 + '\\n'));
`,
  );
  for (let i = 0; i < 100; i++) ws.write(`exit/f${i}`, `${i}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: join(__dirname, '../../..'), encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.signal, null, `the script was killed after 120 s: helpers kept it alive (${run.stderr})`);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), 'scanned 6000');
});

test('a file that cannot be opened (EACCES) is left for the main thread to read and report', {
  skip: process.getuid?.() === 0 ? 'root opens every file' : false,
}, async () => {
  const helpers = new ScanHelpers(1);
  const paths = Array.from({ length: 3000 }, (_, i) => ws.write(`denied/f${i}`, `d${i}`));
  chmodSync(paths[2999] as string, 0o000);
  chmodSync(paths[5] as string, 0o000);
  const { queue, taken } = readingQueue(helpers);
  for (const path of paths) queue.push(path, true);
  const result = await queue.finish();
  for (const i of [5, 2999]) {
    assert.equal(result[i * STAT_FIELDS], KIND.file);
    assert.equal(result[i * STAT_FIELDS + 4], READ.again, `${paths[i]} is read again by the main thread`);
  }
  paths.forEach((path, i) => {
    if (i === 5 || i === 2999) return;
    assert.equal(result[i * STAT_FIELDS + 4], READ.done, path);
    assert.equal(queue.hashOf(i), sha256(readFileSync(path)), path);
    assert.ok(taken.has(queue.hashOf(i)), path);
  });
  await helpers.stop();
});
