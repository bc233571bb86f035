import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { spawnCli } from '../../helpers/cli-runner.js';
import { eventually, isPidAlive } from '../../helpers/pid-liveness.js';

describe('SIGTERM and SIGHUP stop the CLI like a first Ctrl+C', { skip: process.platform !== 'linux' && 'needs /proc (Linux)' }, () => {
  const fx = useAgentFixture();

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    test(`${signal}: the running command's processes are killed, the JSON summary is printed, exit code 1`, async () => {
      // The shell writes the pid of a process it starts in a new session, then waits on its own sleep.
      const command = `setsid sh -c 'echo $$ > detached.pid; exec sleep 1000' & echo $$ > shell.pid; sleep 1000`;
      fx.server.enqueue({
        text: `<execute_command>\n<command>${command}</command>\n<requires_approval>false</requires_approval>\n<timeout>600</timeout>\n</execute_command>`,
      });
      const { child, done } = spawnCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Start the server'], timeoutMs: 60_000 });
      const pidOf = (name: string) => {
        const file = join(fx.ws.root, name);
        return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) || undefined : undefined;
      };
      assert.ok(await eventually(() => pidOf('detached.pid') !== undefined && pidOf('shell.pid') !== undefined, 30_000), 'the command never started');
      const detached = pidOf('detached.pid')!;
      const shell = pidOf('shell.pid')!;
      try {
        child.kill(signal);
        const run = await done;
        assert.equal(run.code, 1, run.stderr);
        const summary = JSON.parse(run.stdout);
        assert.equal(summary.success, false);
        assert.equal(summary.result, null);
        assert.equal(typeof summary.taskId, 'string');
        assert.deepEqual(summary.metadata.toolsUsed, ['execute_command']);
        assert.ok(await eventually(() => !isPidAlive(detached), 20_000), `process ${detached} (setsid) still alive`);
        assert.ok(await eventually(() => !isPidAlive(shell), 20_000), `process ${shell} (the command's shell) still alive`);
      } finally {
        for (const pid of [detached, -shell]) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
      }
    });
  }
});
