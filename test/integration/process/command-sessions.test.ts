import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { CommandSessions } from '../../../src/core/process/command-sessions.js';
import { formatDuration } from '../../../src/core/process/format-duration.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { eventually, isPidAlive } from '../../helpers/pid-liveness.js';

describe('formatDuration', () => {
  test('reads naturally at every scale', () => {
    assert.equal(formatDuration(850), '850 ms');
    assert.equal(formatDuration(1500), '1.5 s');
    assert.equal(formatDuration(3000), '3 s');
    assert.equal(formatDuration(42_900), '42 s');
    assert.equal(formatDuration(185_000), '3 min 5 s');
    assert.equal(formatDuration(120_000), '2 min');
    assert.equal(formatDuration(7_800_000), '2 h 10 min');
  });
});

describe('CommandSessions', { skip: process.platform === 'win32' && 'POSIX shell tests' }, () => {
  let ws: TempWorkspace;
  let sessions: CommandSessions;
  let clock: number;
  const runner = new ChildProcessRunner({ killGraceMs: 1000 });
  beforeEach(() => {
    ws = createTempWorkspace();
    clock = 1_000_000;
    sessions = new CommandSessions({ now: () => clock });
  });
  afterEach(async () => {
    await sessions.killAll();
    ws.dispose();
  });

  test('is empty when nothing runs', () => {
    assert.equal(sessions.runningSummary(), '');
  });

  test('reports id, command, run time and only new output', async () => {
    const session = sessions.start(runner, 'echo first; sleep 0.3; echo second; sleep 300', { cwd: ws.root });
    assert.equal(session.id, 1);
    let summary = '';
    assert.ok(
      await eventually(() => {
        summary += `${sessions.runningSummary()}\n`;
        return summary.includes('\nsecond\n');
      }),
    );
    assert.match(summary, /## Command 1 \(running for /);
    assert.match(summary, /\$ echo first;/);
    // Each line was reported exactly once across the summaries.
    assert.equal(summary.match(/^first$/gm)?.length, 1);
    assert.equal(summary.match(/^second$/gm)?.length, 1);
    clock += 65_000;
    const later = sessions.runningSummary();
    assert.match(later, /## Command 1 \(running for 1 min 5 s\)/);
    assert.ok(later.endsWith('$ echo first; sleep 0.3; echo second; sleep 300\n(no new output)'), later);
  });

  test('reports an exit once, then forgets the command', async () => {
    const session = sessions.start(runner, 'echo bye; exit 4', { cwd: ws.root });
    await session.process.exited;
    await new Promise((resolve) => setImmediate(resolve));
    const summary = sessions.runningSummary();
    assert.match(summary, /## Command 1 \(exited with code 4 after /);
    assert.match(summary, /New output since the last report:\nbye/);
    assert.equal(sessions.runningSummary(), '');
  });

  test('track() adopts a running process and counts the time it already ran', async () => {
    const running = runner.start('sleep 300', { cwd: ws.root });
    const session = sessions.track('sleep 300', running, 30_000);
    assert.equal(session.startedAt, clock - 30_000);
    assert.match(sessions.runningSummary(), /running for 30 s/);
  });

  test('killAll() ends every command tree and forgets them', async () => {
    const a = sessions.start(runner, 'sleep 300 & echo $! > a.pid; wait', { cwd: ws.root });
    sessions.start(runner, 'sleep 300', { cwd: ws.root });
    assert.ok(await eventually(() => existsSync(join(ws.root, 'a.pid')) && ws.read('a.pid').trim() !== ''));
    const grandchild = Number(ws.read('a.pid').trim());
    await sessions.killAll();
    assert.equal((await a.process.exited).exitCode, null);
    assert.ok(await eventually(() => !isPidAlive(grandchild)));
    assert.equal(sessions.list().length, 0);
    assert.equal(sessions.runningSummary(), '');
  });

  test('kill(id) ends one command', async () => {
    const one = sessions.start(runner, 'sleep 300', { cwd: ws.root });
    const two = sessions.start(runner, 'sleep 300', { cwd: ws.root });
    assert.equal(await sessions.kill(one.id), true);
    assert.equal(await sessions.kill(one.id), false);
    assert.deepEqual(
      sessions.list().map((s) => s.id),
      [two.id],
    );
  });
});
