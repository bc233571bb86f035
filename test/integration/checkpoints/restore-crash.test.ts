import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CheckpointStore } from '../../../src/core/checkpoints/checkpoint-store.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';

const ws = createTempWorkspace('smith-cp-crash-');
const storage = createTempWorkspace('smith-cp-crash-store-');
after(() => {
  ws.dispose();
  storage.dispose();
});

const FILES = 3000;
const version = (v: string, i: number) => `${v} of file ${i}\n`.repeat(200);
const nameOf = (i: number) => `src/d${i % 30}/f${i}.txt`;

test('killing Smith during a restore leaves every file whole, and the next start finishes the restore', async () => {
  for (let i = 0; i < FILES; i++) ws.write(nameOf(i), version('v1', i));
  const store = new CheckpointStore({ storageDir: storage.root, workspaceRoot: ws.root, ignore: NOTHING_IGNORED });
  const first = await store.snapshot();
  for (let i = 0; i < FILES; i++) ws.write(nameOf(i), version('v2', i));
  ws.write('created-later.txt', 'new');
  const latest = await store.snapshot();

  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '../../fixtures/checkpoint-restore-child.ts'), storage.root, ws.root, first.root, latest.root],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  // Kill the moment the journal appears: the restore has begun writing files.
  const watcher = watch(store.dir, (_event, name) => {
    if (name === 'restore-journal.json') child.kill('SIGKILL');
  });
  const signal = await exited;
  watcher.close();
  const interrupted = existsSync(join(store.dir, 'restore-journal.json'));
  assert.ok(signal === 'SIGKILL' || !interrupted, 'the child either was killed or finished cleanly');

  for (let i = 0; i < FILES; i++) {
    const text = ws.read(nameOf(i));
    assert.ok(text === version('v1', i) || text === version('v2', i), `${nameOf(i)} is whole`);
  }
  const reopened = new CheckpointStore({ storageDir: storage.root, workspaceRoot: ws.root, ignore: NOTHING_IGNORED });
  const recovered = reopened.recoverInterruptedRestore();
  if (interrupted) assert.deepEqual(recovered?.failures, []);
  for (let i = 0; i < FILES; i++) assert.equal(ws.read(nameOf(i)), version('v1', i));
  assert.equal(existsSync(join(ws.root, 'created-later.txt')), false);
  const litter = readdirSync(ws.root, { recursive: true }).filter((name) => String(name).endsWith('.smith-restore'));
  assert.deepEqual(litter, []);
  assert.equal((await reopened.snapshot()).root, first.root);
});
