import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli, spawnCli } from '../../helpers/cli-runner.js';
import { eventually, isPidAlive } from '../../helpers/pid-liveness.js';

describe('resuming after Smith was killed mid-command', { skip: process.platform !== 'linux' && 'needs /proc (Linux)' }, () => {
  const fx = useAgentFixture();

  test('--resume stops the processes the interrupted command left running, including ones that left its session', async () => {
    // The command starts a process in a new session, then the shell itself waits: both outlive a kill -9 of Smith.
    const command = `setsid sh -c 'echo $$ > survivor.pid; exec sleep 1000' & echo $$ > shell.pid; echo started; sleep 1000`;
    fx.server.enqueue({
      text: `<execute_command>\n<command>${command}</command>\n<requires_approval>false</requires_approval>\n<timeout>600</timeout>\n</execute_command>`,
    });
    const { child, done } = spawnCli({ args: [...fx.cliArgs(), '--yes', 'Start the server'] });
    const pidFile = (name: string) => join(fx.ws.root, name);
    // Killed once the command runs (its start is logged before it runs: docs/architecture.md).
    const logged = () => {
      const [taskId] = existsSync(join(fx.storage, 'tasks')) ? readdirSync(join(fx.storage, 'tasks')) : [];
      const log = taskId ? join(fx.storage, 'tasks', taskId, 'events.jsonl') : '';
      return log !== '' && existsSync(log) && readFileSync(log, 'utf8').includes('"type":"command_started"');
    };
    const ready = await eventually(
      () => ['survivor.pid', 'shell.pid'].every((name) => existsSync(pidFile(name)) && readFileSync(pidFile(name), 'utf8').trim() !== '') && logged(),
      30_000,
    );
    assert.ok(ready, 'the command never started, or its start was never logged');
    const survivor = Number(readFileSync(pidFile('survivor.pid'), 'utf8'));
    const shell = Number(readFileSync(pidFile('shell.pid'), 'utf8'));
    // The shell leads its own process group (its sleep is in it too).
    const cleanup = () =>
      [survivor, -shell].forEach((pid) => {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      });
    try {
      child.kill('SIGKILL');
      await done;
      assert.ok(isPidAlive(survivor) && isPidAlive(shell), 'the processes should have outlived Smith');

      const [taskId] = readdirSync(join(fx.storage, 'tasks'));
      const events = readFileSync(join(fx.storage, 'tasks', taskId!, 'events.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const started = events.find((event) => event.type === 'command_started');
      assert.ok(started, 'no command_started event in the log');
      assert.equal(started.command, command);
      // The marker logged before the command ran is the one its processes carry, the escaped one too.
      assert.equal(typeof started.marker, 'string');
      for (const pid of [survivor, shell]) {
        const marked = readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .find((entry) => entry.startsWith('SMITH_COMMAND_ID='));
        assert.ok(marked?.slice('SMITH_COMMAND_ID='.length).split(':').includes(started.marker), `process ${pid} carries ${marked}`);
      }

      fx.server.enqueue({ text: '<attempt_completion>\n<result>resumed</result>\n</attempt_completion>' });
      const resumed = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', '--resume', taskId!] });
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.stderr, /Stopped \d+ processes left running by `setsid sh -c/);
      assert.ok(await eventually(() => !isPidAlive(survivor)), `process ${survivor} (setsid) still alive`);
      assert.ok(await eventually(() => !isPidAlive(shell)), `process ${shell} (the command's shell) still alive`);
      assert.equal(JSON.parse(resumed.stdout).result, 'resumed');
    } finally {
      cleanup();
    }
  });
});
