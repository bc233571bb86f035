// The stats behind a checkpoint scan, taken on helper threads for big workspaces: the same
// answers as lstat on the main thread, in the order the paths were given.
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { KIND, STAT_FIELDS, StatQueue } from '../../../src/core/checkpoints/parallel-lstat.js';
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
  const queue = new StatQueue();
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
  const queue = new StatQueue();
  for (const path of paths) queue.push(path);
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(queue.finish(controller.signal), { name: 'AbortError' });
  const result = await statAll(paths);
  for (const [i, path] of paths.entries()) assert.equal(result[i * STAT_FIELDS + 3], lstatSync(path).ino);
});
