import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { CheckpointStore } from '../../../src/core/checkpoints/checkpoint-store.js';
import { WorkspaceCheckpoints } from '../../../src/core/checkpoints/workspace-checkpoints.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

// A restore never deletes or overwrites a file a snapshot did not keep: over the size limit,
// ignored, unreadable or not a regular file, whether it was not kept by the checkpoint or is not
// kept now; in every folder of a multi-root workspace.
const LIMIT = 1024;
const big = (tag: string) => `${tag}\n`.repeat(LIMIT);
let ws: TempWorkspace;
let other: TempWorkspace;
let storage: TempWorkspace;
const storeOf = (root: string) => new CheckpointStore({ storageDir: storage.root, workspaceRoot: root, ignore: NOTHING_IGNORED, maxFileBytes: LIMIT });

beforeEach(() => {
  ws = createTempWorkspace('smith-untouched-ws-');
  other = createTempWorkspace('smith-untouched-other-');
  storage = createTempWorkspace('smith-untouched-store-');
});
afterEach(() => {
  ws.dispose();
  other.dispose();
  storage.dispose();
});

async function restoreFirst(store: CheckpointStore, change: () => void) {
  const first = await store.snapshot();
  change();
  const latest = await store.snapshot();
  const plan = await store.planRestore(first.root, latest.root);
  return { plan, failures: store.restore(plan) };
}

describe('files a snapshot did not keep', () => {
  test('a file grown over the size limit since the checkpoint is not overwritten with its old content', async () => {
    ws.write('data.csv', 'small');
    ws.write('code.ts', 'v1');
    const { plan } = await restoreFirst(storeOf(ws.root), () => {
      ws.write('data.csv', big('mine'));
      ws.write('code.ts', 'v2');
    });
    assert.equal(ws.read('data.csv'), big('mine'));
    assert.equal(ws.read('code.ts'), 'v1');
    assert.deepEqual(
      plan.untouched.map((f) => f.path),
      ['data.csv'],
    );
  });

  test('a file over the size limit at the checkpoint and small now is not deleted by the restore', async () => {
    ws.write('data.csv', big('then'));
    ws.write('code.ts', 'v1');
    const { plan } = await restoreFirst(storeOf(ws.root), () => {
      ws.write('data.csv', 'small now');
      ws.write('code.ts', 'v2');
      ws.write('created.ts', 'new');
    });
    assert.equal(ws.read('data.csv'), 'small now');
    assert.equal(ws.read('code.ts'), 'v1');
    assert.equal(existsSync(join(ws.root, 'created.ts')), false);
    assert.deepEqual(plan.deletes, ['created.ts']);
    assert.deepEqual(
      plan.untouched.map((f) => f.path),
      ['data.csv'],
    );
  });

  test('the same in a sub-folder that holds nothing but the big file', async () => {
    ws.write('code.ts', 'v1');
    ws.write('data/huge.bin', big('then'));
    await restoreFirst(storeOf(ws.root), () => ws.write('data/huge.bin', 'small now'));
    assert.equal(ws.read('data/huge.bin'), 'small now');
  });

  test('a file ignored now (.gitignore written since) is not overwritten', async () => {
    ws.write('build/out.js', 'v1');
    ws.write('src/a.ts', 'a1');
    await restoreFirst(storeOf(ws.root), () => {
      ws.write('.gitignore', 'build/\n');
      ws.write('build/out.js', 'my build');
      ws.write('src/a.ts', 'a2');
    });
    assert.equal(ws.read('build/out.js'), 'my build');
    assert.equal(ws.read('src/a.ts'), 'a1');
    assert.equal(existsSync(join(ws.root, '.gitignore')), false);
  });

  test('an ignored file present at restore time is neither deleted nor replaced', async () => {
    ws.write('.gitignore', '*.log\n.env\n');
    ws.write('app.ts', 'v1');
    await restoreFirst(storeOf(ws.root), () => {
      ws.write('debug.log', 'log');
      ws.write('.env', 'SECRET=1');
      ws.write('app.ts', 'v2');
    });
    assert.equal(ws.read('debug.log'), 'log');
    assert.equal(ws.read('.env'), 'SECRET=1');
    assert.equal(ws.read('app.ts'), 'v1');
  });

  test('a file ignored when the checkpoint was taken, and kept now, is not deleted as if created since', async () => {
    ws.write('.gitignore', '*.log\nout/\n');
    ws.write('debug.log', 'ignored then');
    ws.write('out/report.txt', 'ignored folder then');
    ws.write('app.ts', 'v1');
    const { plan } = await restoreFirst(storeOf(ws.root), () => {
      ws.write('.gitignore', '# nothing ignored now\n');
      ws.write('app.ts', 'v2');
      ws.write('created.ts', 'new');
    });
    assert.equal(ws.read('debug.log'), 'ignored then');
    assert.equal(ws.read('out/report.txt'), 'ignored folder then');
    assert.equal(ws.read('.gitignore'), '*.log\nout/\n');
    assert.equal(ws.read('app.ts'), 'v1');
    assert.equal(existsSync(join(ws.root, 'created.ts')), false);
    assert.deepEqual(plan.untouched.map((f) => f.path).sort(), ['debug.log', 'out/report.txt']);
  });

  test('a FIFO standing where the checkpoint had a file is left alone', async () => {
    ws.write('pipe', 'a file then');
    const { plan } = await restoreFirst(storeOf(ws.root), () => {
      rmSync(join(ws.root, 'pipe'));
      execFileSync('mkfifo', [join(ws.root, 'pipe')]);
    });
    assert.ok(lstatSync(join(ws.root, 'pipe')).isFIFO());
    assert.deepEqual(
      plan.untouched.map((f) => f.path),
      ['pipe'],
    );
  });

  test('in every folder of a multi-root workspace', async () => {
    ws.write('main.ts', 'm1');
    other.write('api.ts', 'a1');
    other.write('dump.sql', 'small');
    other.write('old.bin', big('then'));
    const checkpoints = new WorkspaceCheckpoints(storeOf(ws.root), [{ name: 'api', path: other.root, store: storeOf(other.root) }]);
    const first = await checkpoints.snapshot();
    ws.write('main.ts', 'm2');
    other.write('api.ts', 'a2');
    other.write('dump.sql', big('mine'));
    other.write('old.bin', 'small now');
    const latest = await checkpoints.snapshot();
    const plan = await checkpoints.planRestore(first, latest);
    assert.deepEqual(checkpoints.restore(plan), []);
    assert.equal(ws.read('main.ts'), 'm1');
    assert.equal(other.read('api.ts'), 'a1');
    assert.equal(other.read('dump.sql'), big('mine'));
    assert.equal(other.read('old.bin'), 'small now');
    assert.deepEqual(plan.untouched.map((f) => f.path).sort(), ['api/dump.sql', 'api/old.bin']);
  });
});
