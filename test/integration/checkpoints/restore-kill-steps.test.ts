import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { restoreJournalFileOf } from '../../../src/core/checkpoints/checkpoint-store.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { describeRecoveredRestore, recoverInterruptedRestores } from '../../../src/core/checkpoints/interrupted-restores.js';
import { withWalledCheckpointStore } from '../../helpers/walled-checkpoint-store.js';
import { until } from '../../helpers/until.js';

// A restore killed with SIGKILL at every step: before its journal, right after it, after each
// file, and just before the journal is cleared. Recovery (by any later command, from anywhere)
// finishes the files still as the crash left them, leaves alone and reports files changed since,
// and never touches anything outside the workspace.
const walled = withWalledCheckpointStore('kill', { 'a.ts': 'outside' });

/** A restore of 5 files (2 deletes, created.ts and the link lib, then 3 writes, lib/c.ts in a real folder again) killed at `step`. */
async function killedAt(step: string, beforeKill: () => void = () => {}) {
  walled.ws.write('a.ts', 'a1');
  walled.ws.write('b.ts', 'b1');
  walled.ws.write('lib/c.ts', 'c1');
  const store = walled.open();
  const first = await store.snapshot();
  walled.ws.write('a.ts', 'a2');
  walled.ws.write('b.ts', 'b2');
  walled.ws.write('created.ts', 'new');
  rmSync(join(walled.ws.root, 'lib'), { recursive: true });
  symlinkSync(walled.outside.root, join(walled.ws.root, 'lib'));
  const latest = await store.snapshot();
  const marker = join(walled.storage.root, 'stopped');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(__dirname, '../../fixtures/checkpoint-restore-step-child.ts'),
      walled.storage.root,
      walled.ws.root,
      first.root,
      latest.root,
      step,
      marker,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await until(() => existsSync(marker), `the restore to reach ${step}`, 60_000);
  beforeKill();
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
  return { store, first };
}

const EXPECTED = () => {
  assert.equal(walled.ws.read('a.ts'), 'a1');
  assert.equal(walled.ws.read('b.ts'), 'b1');
  assert.equal(walled.ws.read('lib/c.ts'), 'c1');
  assert.equal(existsSync(join(walled.ws.root, 'created.ts')), false);
  const litter = readdirSync(walled.ws.root, { recursive: true }).filter((name) => String(name).endsWith('.smith-restore'));
  assert.deepEqual(litter, []);
};

describe('a restore killed at every step', { timeout: 300_000 }, () => {
  test('killed before its journal was written: nothing changed, nothing to recover', async () => {
    const { store } = await killedAt('before-journal');
    assert.equal(existsSync(restoreJournalFileOf(store.dir)), false);
    assert.equal(walled.ws.read('a.ts'), 'a2');
    assert.equal(walled.ws.read('created.ts'), 'new');
    assert.deepEqual(recoverInterruptedRestores(walled.storage.root), []);
  });

  for (const step of ['journal-written', 'file:1', 'file:2', 'file:3', 'file:4', 'file:5', 'before-clear']) {
    test(`killed at ${step}: the next command finishes it and says what it did`, async () => {
      const { store, first } = await killedAt(step);
      assert.equal(existsSync(restoreJournalFileOf(store.dir)), true);
      const recovered = recoverInterruptedRestores(walled.storage.root);
      assert.equal(recovered.length, 1);
      const [report] = recovered;
      assert.equal(report?.root, walled.ws.root);
      assert.deepEqual(report?.leftAlone, []);
      assert.deepEqual(report?.failures, []);
      const done = Number(step.startsWith('file:') ? step.slice(5) : step === 'before-clear' ? 5 : 0);
      assert.equal(report?.alreadyDone, done);
      assert.equal(report?.finished.length, 5 - done);
      assert.match(describeRecoveredRestore(report!), /was interrupted/);
      EXPECTED();
      assert.equal(existsSync(restoreJournalFileOf(store.dir)), false);
      assert.equal((await walled.open().snapshot()).root, first.root);
      assert.deepEqual(recoverInterruptedRestores(walled.storage.root), [], 'reported once');
    });
  }

  test("killed between writing a file's temporary copy and renaming it: the copy is cleared, the file finished", async () => {
    const { store } = await killedAt('temp:3'); // a.ts
    assert.equal(walled.ws.read('a.ts'), 'a2', 'the file is whole, the old content');
    assert.equal(existsSync(join(walled.ws.root, '.a.ts.smith-restore')), true);
    const [report] = recoverInterruptedRestores(walled.storage.root);
    assert.equal(report?.alreadyDone, 2);
    assert.deepEqual([...(report?.finished ?? [])].sort(), ['a.ts', 'b.ts', 'lib/c.ts']);
    EXPECTED();
    assert.equal(existsSync(restoreJournalFileOf(store.dir)), false);
  });

  test('files the user changed after the crash are left alone and reported; the others are finished', async () => {
    const { store } = await killedAt('file:1'); // created.ts is deleted; the link lib, a, b and lib/c.ts are not done yet
    walled.ws.write('b.ts', 'edited by the user after the crash');
    walled.ws.write('created.ts', 'made again by the user');
    const [report] = recoverInterruptedRestores(walled.storage.root);
    assert.deepEqual([...(report?.leftAlone ?? [])].sort(), ['b.ts', 'created.ts']);
    assert.deepEqual([...(report?.finished ?? [])].sort(), ['a.ts', 'lib', 'lib/c.ts']);
    assert.equal(report?.alreadyDone, 0);
    assert.equal(walled.ws.read('b.ts'), 'edited by the user after the crash');
    assert.equal(walled.ws.read('created.ts'), 'made again by the user');
    assert.equal(walled.ws.read('a.ts'), 'a1');
    assert.equal(walled.ws.read('lib/c.ts'), 'c1');
    assert.match(
      describeRecoveredRestore(report!),
      /Left as they are, because they changed after the restore stopped: (b\.ts, created\.ts|created\.ts, b\.ts)/,
    );
    assert.equal(existsSync(restoreJournalFileOf(store.dir)), false);
  });

  test('the journal of a restore whose process still runs is left to it', async () => {
    let whileRunning: unknown;
    await killedAt('file:2', () => {
      whileRunning = recoverInterruptedRestores(walled.storage.root);
      assert.equal(walled.ws.read('a.ts'), 'a2', 'not touched while the restore runs');
    });
    assert.deepEqual(whileRunning, []);
    const [report] = recoverInterruptedRestores(walled.storage.root);
    assert.equal(report?.alreadyDone, 2);
    EXPECTED();
  });

  test('opening the store recovers it too, and tells through notify', async () => {
    await killedAt('file:2');
    const { openCheckpointStore } = await import('../../../src/core/checkpoints/open-checkpoint-store.js');
    const notices: string[] = [];
    openCheckpointStore({
      storageDir: walled.storage.root,
      workspaceRoot: walled.ws.root,
      ignore: NOTHING_IGNORED,
      notify: (message) => notices.push(message),
    });
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /3 files restored now .*2 files already restored/);
    EXPECTED();
  });
});
