import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { COMMAND_MARKER_VARIABLE, findMarkedProcesses, markedEnvironment } from '../../../src/core/process/command-marker.js';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { CommandSessions } from '../../../src/core/process/command-sessions.js';
import { killMarkedProcesses } from '../../../src/core/process/process-tree.js';
import type { RunningProcess } from '../../../src/core/ports.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { stopLeftoverCommands } from '../../../src/core/task/leftover-commands.js';
import { createExecuteCommandTool } from '../../../src/core/tools/execute-command.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { eventually, isPidAlive } from '../../helpers/pid-liveness.js';

// Processes that leave the command's process group: a new session (setsid), nohup in the
// background, and a double fork whose middle process exits at once (re-parented to init).
// Each writes its own pid, so the test knows exactly which process must die.
const ESCAPING = [
  `setsid sh -c 'echo $$ > setsid.pid; exec sleep 1000' &`,
  `nohup sh -c 'echo $$ > nohup.pid; exec sleep 1000' >/dev/null 2>&1 &`,
  `(setsid sh -c 'echo $$ > double.pid; exec sleep 1000' &) ;`,
].join(' ');
const PID_FILES = ['setsid.pid', 'nohup.pid', 'double.pid'];

const linux = process.platform === 'linux';

describe('commands that start processes outside their process group', { skip: !linux && 'needs /proc (Linux)' }, () => {
  let ws: TempWorkspace;
  let started: number[];
  beforeEach(() => {
    ws = createTempWorkspace();
    started = [];
  });
  afterEach(() => {
    // Never leave a sleeper behind, whatever the test did.
    for (const pid of started) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    ws.dispose();
  });

  async function escapedPids(): Promise<number[]> {
    assert.ok(
      await eventually(() => PID_FILES.every((file) => existsSync(join(ws.root, file)) && ws.read(file).trim() !== '')),
      'the escaping processes never started',
    );
    const pids = PID_FILES.map((file) => Number(ws.read(file).trim()));
    started.push(...pids);
    for (const pid of pids) assert.ok(isPidAlive(pid), `process ${pid} is not running`);
    return pids;
  }

  async function assertAllGone(pids: readonly number[]): Promise<void> {
    for (const pid of pids) assert.ok(await eventually(() => !isPidAlive(pid)), `process ${pid} is still alive`);
  }

  test('the runner marks each command, and kill() ends processes that left with setsid, nohup or a double fork', async () => {
    const running = new ChildProcessRunner({ killGraceMs: 1000 }).start(`${ESCAPING} echo ready; sleep 1000`, { cwd: ws.root });
    assert.ok(running.marker);
    assert.ok(running.pid);
    const pids = await escapedPids();
    // The marker finds them although none is in the shell's process group any more.
    for (const pid of pids) assert.ok(findMarkedProcesses(running.marker!).includes(pid), `marker misses ${pid}`);
    await running.kill();
    await assertAllGone(pids);
    assert.deepEqual(running.killReport, { checked: true, survivors: [] });
  });

  test('a timed-out execute_command kills the escaped processes and says only what it checked', async () => {
    const harness = new ToolHarness(ws.root);
    harness.processes = new ChildProcessRunner({ killGraceMs: 1000 });
    harness.policy = APPROVE_ALL_POLICY;
    const sessions = new CommandSessions();
    const tool = createExecuteCommandTool(sessions, { quietPeriodMs: 300 });
    const outcome = harness.run(tool, { command: `${ESCAPING} echo ready; sleep 1000`, requires_approval: 'false', timeout: '3' });
    const pids = await escapedPids();
    const result = await outcome;
    assert.equal(result.kind, 'result');
    assert.match(
      (result as Extract<ToolOutcome, { kind: 'result' }>).output,
      /^The command did not finish within 3 s and was killed, together with every process it started\.\n/,
    );
    await assertAllGone(pids);
    await sessions.killAll();
  });

  test('an aborted execute_command kills the escaped processes', async () => {
    const harness = new ToolHarness(ws.root);
    harness.processes = new ChildProcessRunner({ killGraceMs: 1000 });
    harness.policy = APPROVE_ALL_POLICY;
    const tool = createExecuteCommandTool(new CommandSessions(), { quietPeriodMs: 60_000 });
    const controller = new AbortController();
    const outcome = harness.run(tool, { command: `${ESCAPING} echo ready; sleep 1000`, requires_approval: 'false', timeout: '600' }, controller.signal);
    const pids = await escapedPids();
    controller.abort(new Error('aborted by user'));
    await assert.rejects(outcome, /aborted by user/);
    await assertAllGone(pids);
  });

  test('a background command ended with the task (killAll) takes its escaped processes with it', async () => {
    const sessions = new CommandSessions();
    sessions.start(new ChildProcessRunner({ killGraceMs: 1000 }), `${ESCAPING} sleep 1000`, { cwd: ws.root });
    const pids = await escapedPids();
    await sessions.killAll();
    await assertAllGone(pids);
  });

  test('processes left by a command of a crashed run are found by their marker and stopped on resume', async () => {
    // What a crash leaves: the log's command_started event, and processes carrying its marker.
    const marker = `test-${process.pid}-${Date.now()}`;
    const { spawn } = await import('node:child_process');
    const shell = spawn('/bin/sh', ['-c', `${ESCAPING} exit 0`], {
      cwd: ws.root,
      env: markedEnvironment(process.env, marker),
      stdio: 'ignore',
      detached: true,
    });
    shell.unref();
    const pids = await escapedPids();
    const events = [
      { type: 'tool_requested', callId: 'call-1', tool: 'execute_command', params: {}, seq: 0, ts: 0 },
      { type: 'command_started', callId: 'call-1', command: 'start servers', marker, pid: shell.pid, seq: 1, ts: 0 },
    ] as const;
    const leftovers = await stopLeftoverCommands(events, { graceMs: 1000 });
    assert.equal(leftovers.length, 1);
    assert.equal(leftovers[0]!.command, 'start servers');
    assert.deepEqual([...leftovers[0]!.found].sort(), [...pids].sort());
    assert.deepEqual(leftovers[0]!.survivors, []);
    await assertAllGone(pids);
    // Nothing left: a second look finds nothing to stop.
    assert.deepEqual(await stopLeftoverCommands(events, { graceMs: 1000 }), []);
  });

  test('a nested marker keeps the outer one, so the outer command still reaches the inner processes', async () => {
    const env = markedEnvironment(markedEnvironment({ PATH: '/bin' }, 'outer'), 'inner');
    assert.equal(env[COMMAND_MARKER_VARIABLE], 'outer:inner');
    const report = await killMarkedProcesses(`no-such-marker-${Date.now()}`, { graceMs: 100 });
    assert.deepEqual(report, { checked: true, survivors: [] });
  });
});

describe('what execute_command tells the model after a kill', { skip: process.platform === 'win32' && 'POSIX' }, () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = createTempWorkspace()));
  afterEach(() => ws.dispose());

  // A port whose command never ends and whose kill reports what the test says it found.
  function portReporting(killReport: RunningProcess['killReport']): ToolHarness {
    const harness = new ToolHarness(ws.root);
    harness.policy = APPROVE_ALL_POLICY;
    harness.processes = {
      start(): RunningProcess {
        let exit!: (info: { exitCode: number | null }) => void;
        const exited = new Promise<{ exitCode: number | null }>((resolve) => (exit = resolve));
        const process: RunningProcess & { killReport?: RunningProcess['killReport'] } = {
          exited,
          onOutput: () => {},
          kill: async () => {
            if (killReport) process.killReport = killReport;
            exit({ exitCode: null });
          },
        };
        return process;
      },
    };
    return harness;
  }

  test('survivors are named, and an unchecked kill is not called complete', async () => {
    const tool = createExecuteCommandTool(new CommandSessions(), { quietPeriodMs: 60_000 });
    const params = { command: 'serve', requires_approval: 'false', timeout: '0.2' };
    const survived = await portReporting({ checked: true, survivors: [4242, 4343] }).run(tool, params);
    assert.match(
      (survived as { output: string }).output,
      /was killed, but 2 processes it started could not be stopped and may still be running \(pid 4242, 4343\)\./,
    );
    const unchecked = await portReporting(undefined).run(tool, params);
    assert.match((unchecked as { output: string }).output, /was killed; whether every process it started has exited could not be checked\./);
    assert.doesNotMatch((unchecked as { output: string }).output, /every process it started\./);
  });
});
