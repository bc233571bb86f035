import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ChildProcessRunner, commandEnvironment, shellInvocation, withStderrOnStdout } from '../../../src/core/process/child-process-runner.js';
import type { RunningProcess } from '../../../src/core/ports.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { eventually, isPidAlive } from '../../helpers/pid-liveness.js';

const posix = process.platform !== 'win32';

async function run(running: RunningProcess): Promise<{ output: string; exitCode: number | null; signal?: string }> {
  const chunks: string[] = [];
  running.onOutput((chunk) => chunks.push(chunk));
  const exit = await running.exited;
  return { output: chunks.join(''), ...exit };
}

describe('shellInvocation', () => {
  test('uses $SHELL -c on POSIX, falling back to /bin/sh', () => {
    assert.deepEqual(shellInvocation('ls', 'linux', { SHELL: '/bin/zsh' }), { file: '/bin/zsh', args: ['-c', 'ls'], verbatimArguments: false });
    assert.deepEqual(shellInvocation('ls', 'darwin', {}), { file: '/bin/sh', args: ['-c', 'ls'], verbatimArguments: false });
  });

  test('uses cmd.exe /d /s /c on Windows', () => {
    assert.deepEqual(shellInvocation('dir "a b"', 'win32', {}), { file: 'cmd.exe', args: ['/d', '/s', '/c', '"dir "a b""'], verbatimArguments: true });
  });

  test('puts stderr on stdout through /bin/sh on POSIX, whatever the shell; Windows keeps two pipes', () => {
    const fish = shellInvocation('ls', 'linux', { SHELL: '/usr/bin/fish' });
    assert.deepEqual(withStderrOnStdout(fish, 'linux'), {
      file: '/bin/sh',
      args: ['-c', 'exec "$@" 2>&1', 'sh', '/usr/bin/fish', '-c', 'ls'],
      verbatimArguments: false,
    });
    const cmd = shellInvocation('dir', 'win32', {});
    assert.equal(withStderrOnStdout(cmd, 'win32'), cmd);
  });

  test('disables pagers without forcing colour', () => {
    const env = commandEnvironment({}, { PATH: '/bin', PAGER: 'less' });
    assert.deepEqual(env, { PATH: '/bin', PAGER: 'cat', GIT_PAGER: 'cat' });
  });
});

describe('ChildProcessRunner', { skip: !posix && 'POSIX shell tests' }, () => {
  let ws: TempWorkspace;
  const runner = new ChildProcessRunner({ killGraceMs: 1000 });
  beforeEach(() => {
    ws = createTempWorkspace();
  });
  afterEach(() => ws.dispose());

  test('captures exit codes and runs in the given folder', async () => {
    const ok = await run(runner.start('pwd', { cwd: ws.root }));
    assert.deepEqual(ok, { output: `${ws.root}\n`, exitCode: 0 });
    const failed = await run(runner.start('echo oops; exit 3', { cwd: ws.root }));
    assert.deepEqual(failed, { output: 'oops\n', exitCode: 3 });
  });

  test('interleaves stdout and stderr in arrival order', async () => {
    const result = await run(runner.start('echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2', { cwd: ws.root }));
    assert.equal(result.output, 'out1\nerr1\nout2\n');
  });

  test('keeps stdout and stderr in the order written, without pauses between them, and says they are merged', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => (i % 3 === 1 ? `echo err${i} >&2` : `echo out${i}`));
    const running = runner.start(lines.join('; '), { cwd: ws.root });
    assert.equal(running.streams, 'merged');
    const result = await run(running);
    const expected = Array.from({ length: 300 }, (_, i) => `${i % 3 === 1 ? 'err' : 'out'}${i}\n`).join('');
    assert.equal(result.output, expected);
  });

  test('the same order under the shells a user may have as $SHELL', () => {
    for (const shell of ['/bin/bash', '/usr/bin/zsh', '/usr/bin/fish', '/bin/sh']) {
      if (!existsSync(shell)) continue;
      const spawned = withStderrOnStdout(shellInvocation('echo one; echo two >&2; echo three', 'linux', { SHELL: shell }), 'linux');
      const result = spawnSync(spawned.file, spawned.args, { cwd: ws.root, encoding: 'utf8' });
      assert.deepEqual({ stdout: result.stdout, stderr: result.stderr, status: result.status }, { stdout: 'one\ntwo\nthree\n', stderr: '', status: 0 }, shell);
    }
  });

  test('decodes a UTF-8 character split across two writes', async () => {
    const result = await run(runner.start(`printf '\\342\\202'; sleep 0.2; printf '\\254 ok\\n'`, { cwd: ws.root }));
    assert.equal(result.output, '€ ok\n');
  });

  test('closes stdin and sets PAGER and GIT_PAGER', async () => {
    const result = await run(runner.start('cat; echo "pager=$PAGER git=$GIT_PAGER extra=$EXTRA"', { cwd: ws.root, env: { EXTRA: 'yes' } }));
    assert.deepEqual(result, { output: 'pager=cat git=cat extra=yes\n', exitCode: 0 });
  });

  test('replays output that came before the first listener', async () => {
    const running = runner.start('echo early', { cwd: ws.root });
    await running.exited;
    const chunks: string[] = [];
    running.onOutput((chunk) => chunks.push(chunk));
    assert.equal(chunks.join(''), 'early\n');
  });

  test('kill() ends the whole process tree', async () => {
    const running = runner.start('sleep 300 & echo $! > grandchild.pid; echo started; wait', { cwd: ws.root });
    const chunks: string[] = [];
    running.onOutput((chunk) => chunks.push(chunk));
    assert.ok(await eventually(() => chunks.join('').includes('started')));
    const grandchild = Number(ws.read('grandchild.pid').trim());
    assert.ok(isPidAlive(grandchild));
    await running.kill();
    const exit = await running.exited;
    assert.equal(exit.exitCode, null);
    assert.ok(await eventually(() => !isPidAlive(grandchild)), `grandchild ${grandchild} still alive`);
  });

  test('kill() falls back to SIGKILL for a tree that ignores SIGTERM', async () => {
    const running = runner.start(`trap '' TERM; sh -c "trap '' TERM; sleep 300" & echo $! > child.pid; echo started; wait`, { cwd: ws.root });
    const chunks: string[] = [];
    running.onOutput((chunk) => chunks.push(chunk));
    assert.ok(await eventually(() => chunks.join('').includes('started')));
    const child = Number(ws.read('child.pid').trim());
    await running.kill();
    assert.equal((await running.exited).signal, 'SIGKILL');
    assert.ok(await eventually(() => !isPidAlive(child)), `child ${child} still alive`);
  });

  test('does not wait for a backgrounded child that keeps the pipes open', async () => {
    const running = runner.start('sleep 300 & echo $! > bg.pid; echo main done', { cwd: ws.root });
    const result = await run(running);
    assert.deepEqual(result, { output: 'main done\n', exitCode: 0 });
    const bg = Number(ws.read('bg.pid').trim());
    await running.kill();
    assert.ok(await eventually(() => !isPidAlive(bg)), `background child ${bg} still alive`);
  });

  test('a missing working folder rejects exited with a clear error', async () => {
    const missing = join(ws.root, 'nope');
    const running = runner.start('echo hi', { cwd: missing });
    await assert.rejects(running.exited, (error: Error) => error.message.includes(missing));
    assert.equal(existsSync(missing), false);
  });
});
