import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { CommandSessions } from '../../../src/core/process/command-sessions.js';
import { APPROVE_ALL_POLICY, DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import { createExecuteCommandTool } from '../../../src/core/tools/execute-command.js';
import { loadSmithIgnore } from '../../../src/core/workspace/smith-ignore.js';
import type { ToolHandler, ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { eventually, isPidAlive } from '../../helpers/pid-liveness.js';

function resultText(outcome: ToolOutcome): string {
  assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
  return outcome.kind === 'result' ? outcome.output : '';
}

function mistakeText(outcome: ToolOutcome): string {
  assert.equal(outcome.kind, 'error', JSON.stringify(outcome));
  assert.equal(outcome.kind === 'error' && outcome.mistake, true);
  return outcome.kind === 'error' ? outcome.error : '';
}

describe('execute_command', { skip: process.platform === 'win32' && 'POSIX shell tests' }, () => {
  let ws: TempWorkspace;
  let harness: ToolHarness;
  let sessions: CommandSessions;
  let tool: ToolHandler;
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
    harness.processes = new ChildProcessRunner({ killGraceMs: 1000 });
    harness.policy = APPROVE_ALL_POLICY;
    sessions = new CommandSessions();
    tool = createExecuteCommandTool(sessions, { quietPeriodMs: 300, defaultTimeoutSeconds: 60 });
  });
  afterEach(async () => {
    await sessions.killAll();
    ws.dispose();
  });

  test('describes itself to the model', () => {
    assert.equal(tool.spec.name, 'execute_command');
    assert.equal(tool.spec.group, 'command');
    assert.deepEqual(
      tool.spec.params.map((p) => [p.name, p.required]),
      [
        ['command', true],
        ['requires_approval', true],
        ['timeout', false],
      ],
    );
    assert.match(tool.spec.description, /Command is still running \(id N\)/);
    const defaults = createExecuteCommandTool(sessions).spec.description;
    assert.match(defaults, /printed nothing new for 10 s \(and has run at least 15 s\)/);
    assert.match(defaults, /killed after 10 min/);
  });

  test("logs the command's start before any of its processes exists, with the marker they carry", async () => {
    const runner = new ChildProcessRunner({ killGraceMs: 1000 });
    const seenAtStart: { logged: number; marker: string | undefined }[] = [];
    harness.processes = {
      start: (command, options) => {
        seenAtStart.push({ logged: harness.commandsStarted.length, marker: options.marker });
        return runner.start(command, options);
      },
    };
    const output = resultText(await harness.run(tool, { command: 'echo "marker=$SMITH_COMMAND_ID"', requires_approval: 'false' }));
    assert.equal(harness.commandsStarted.length, 1);
    const [logged] = harness.commandsStarted;
    assert.equal(logged?.command, 'echo "marker=$SMITH_COMMAND_ID"');
    assert.match(logged?.marker ?? '', /\S/);
    assert.deepEqual(seenAtStart, [{ logged: 1, marker: logged?.marker }], 'logged first, and the port was given the logged marker');
    // The process carries it (after any marker of an outer Smith run that started this test).
    assert.match(output, new RegExp(`marker=(?:.*:)?${logged!.marker}$`, 'm'));
  });

  test('reports exit code 0 with the output, run in the workspace folder', async () => {
    const output = resultText(await harness.run(tool, { command: 'pwd', requires_approval: 'false' }));
    assert.equal(output, `Exit code: 0\nOutput (stdout and stderr merged in the order printed):\n${ws.root}`);
  });

  test('reports a non-zero exit code and captures stderr', async () => {
    const output = resultText(await harness.run(tool, { command: 'echo to-out; echo to-err >&2; exit 7', requires_approval: 'false' }));
    assert.equal(output, 'Exit code: 7\nOutput (stdout and stderr merged in the order printed):\nto-out\nto-err');
  });

  test('says when there was no output, and when a signal ended the command', async () => {
    assert.equal(resultText(await harness.run(tool, { command: 'true', requires_approval: 'false' })), 'Exit code: 0\nOutput: (none)');
    const killed = resultText(await harness.run(tool, { command: 'kill -9 $$', requires_approval: 'false' }));
    assert.equal(killed, 'Exit code: none (terminated by SIGKILL)\nOutput: (none)');
  });

  test('streams output to progress in order', async () => {
    await harness.run(tool, { command: 'echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three', requires_approval: 'false' });
    assert.equal(harness.progress.join(''), 'one\ntwo\nthree\n');
    assert.ok(harness.progress.length >= 2, `expected several chunks, got ${harness.progress.length}`);
  });

  test('keeps the head and tail of huge output with a note', async () => {
    const output = resultText(await harness.run(tool, { command: 'seq 1 200000', requires_approval: 'false' }));
    const lines = output.split('\n');
    assert.equal(lines[0], 'Exit code: 0');
    assert.match(lines[1]!, /^Output \(stdout and stderr merged in the order printed; too long: the middle was cut/);
    assert.equal(lines[2], '1');
    assert.equal(lines[101], '100');
    assert.equal(lines[102], '[... 199,600 lines (1,286,503 characters) omitted ...]');
    assert.equal(lines[103], '199701');
    assert.equal(lines.at(-1), '200000');
    assert.equal(lines.length, 2 + 100 + 1 + 300);
  });

  test('a timeout kills the whole process tree and returns the output so far', async () => {
    const outcome = await harness.run(tool, {
      command: 'sleep 300 & echo $! > grandchild.pid; echo started; wait',
      requires_approval: 'false',
      timeout: '1.5',
    });
    const output = resultText(outcome);
    assert.match(
      output,
      /^The command did not finish within 1\.5 s and was killed, together with every process it started\.\nOutput before it was killed \(stdout and stderr merged in the order printed\):\nstarted$/,
    );
    const grandchild = Number(ws.read('grandchild.pid').trim());
    assert.ok(await eventually(() => !isPidAlive(grandchild)), `grandchild ${grandchild} still alive`);
  });

  test('a given timeout waits through quiet periods instead of handing off', async () => {
    const output = resultText(await harness.run(tool, { command: 'sleep 1.2; echo finished', requires_approval: 'false', timeout: '60' }));
    assert.equal(output, 'Exit code: 0\nOutput (stdout and stderr merged in the order printed):\nfinished');
    assert.equal(sessions.list().length, 0);
  });

  test('abort kills the whole process tree and rejects', async () => {
    const controller = new AbortController();
    const running = harness.run(
      tool,
      { command: 'sleep 300 & echo $! > grandchild.pid; echo started; wait', requires_approval: 'false', timeout: '120' },
      controller.signal,
    );
    assert.ok(await eventually(() => harness.progress.join('').includes('started')));
    const grandchild = Number(ws.read('grandchild.pid').trim());
    controller.abort(new Error('aborted by user'));
    await assert.rejects(running, /aborted by user/);
    assert.ok(await eventually(() => !isPidAlive(grandchild)), `grandchild ${grandchild} still alive`);
  });

  test('an already aborted signal runs nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await assert.rejects(harness.run(tool, { command: 'touch marker', requires_approval: 'false' }, controller.signal), /stop/);
    assert.equal(existsSync(join(ws.root, 'marker')), false);
  });

  test('a quiet long-running command is left running and reported by the sessions', async () => {
    const outcome = await harness.run(tool, {
      command: 'echo $$ > server.pid; echo ready; sleep 3; echo later; sleep 300',
      requires_approval: 'false',
    });
    const output = resultText(outcome);
    assert.match(output, /^Command is still running \(id 1\)/);
    assert.match(output, /Output so far \(stdout and stderr merged in the order printed\):\nready$/);
    const progressBefore = harness.progress.length;
    let summary = '';
    assert.ok(
      await eventually(() => {
        summary = sessions.runningSummary();
        return summary.includes('\nlater');
      }, 15_000),
      summary,
    );
    assert.match(summary, /## Command 1 \(running for [\d.]+ s\)\n\$ echo \$\$ > server\.pid; echo ready;/);
    assert.equal(harness.progress.length, progressBefore, 'no progress after the tool returned');
    const server = Number(ws.read('server.pid').trim());
    assert.ok(isPidAlive(server));
    await sessions.killAll();
    assert.ok(await eventually(() => !isPidAlive(server)), `server ${server} still alive`);
    assert.equal(sessions.runningSummary(), '');
  });

  test('the user can let a running command continue: the tool returns at once and the sessions keep it', async () => {
    const detach = new AbortController();
    // A long timeout and a given one: neither the quiet hand-off nor the timeout may end the wait.
    const running = harness.run(
      tool,
      { command: "sh -c 'echo $$ > cmd.pid; echo start; sleep 30'", requires_approval: 'false', timeout: '120' },
      undefined,
      detach.signal,
    );
    assert.ok(await eventually(() => harness.progress.join('').includes('start')));
    const detachedAt = Date.now();
    detach.abort();
    const output = resultText(await running);
    assert.ok(Date.now() - detachedAt < 1000, `took ${Date.now() - detachedAt} ms after the signal`);
    assert.match(output, /^Command is still running \(id 1\): the user chose to continue while it runs\. /);
    assert.match(output, /Output so far \(stdout and stderr merged in the order printed\):\nstart$/);
    assert.deepEqual(
      sessions.list().map((s) => [s.id, s.command]),
      [[1, "sh -c 'echo $$ > cmd.pid; echo start; sleep 30'"]],
    );
    const pid = Number(ws.read('cmd.pid').trim());
    assert.ok(isPidAlive(pid), 'the command still runs after the hand-off');
    assert.match(sessions.runningSummary(), /## Command 1 \(running for /);
    await sessions.killAll();
    assert.ok(await eventually(() => !isPidAlive(pid)), `command ${pid} still alive after killAll`);
  });

  test('a detach that comes after the command exited changes nothing', async () => {
    const detach = new AbortController();
    const output = resultText(await harness.run(tool, { command: 'echo done', requires_approval: 'false' }, undefined, detach.signal));
    detach.abort();
    assert.equal(output, 'Exit code: 0\nOutput (stdout and stderr merged in the order printed):\ndone');
    assert.equal(sessions.list().length, 0);
  });

  test('validates requires_approval', async () => {
    assert.equal(
      mistakeText(await harness.run(tool, { command: 'touch marker', requires_approval: 'maybe' })),
      'requires_approval must be "true" or "false", got "maybe".',
    );
    assert.match(mistakeText(await harness.run(tool, { command: 'touch marker' })), /Missing value for required parameter 'requires_approval'/);
    assert.equal(resultText(await harness.run(tool, { command: 'true', requires_approval: ' TRUE ' })), 'Exit code: 0\nOutput: (none)');
    assert.equal(existsSync(join(ws.root, 'marker')), false);
  });

  test('validates timeout', async () => {
    for (const timeout of ['-1', '0', 'soon', 'Infinity']) {
      assert.equal(
        mistakeText(await harness.run(tool, { command: 'touch marker', requires_approval: 'false', timeout })),
        `timeout must be a positive number of seconds, got "${timeout}".`,
      );
    }
    assert.equal(existsSync(join(ws.root, 'marker')), false);
  });

  test('a rejected approval runs nothing', async () => {
    harness.policy = DEFAULT_POLICY;
    harness.answers = [{ approved: false, feedback: 'not now' }];
    const outcome = await harness.run(tool, { command: 'touch marker', requires_approval: 'true' });
    assert.deepEqual(outcome, { kind: 'rejected', feedback: 'not now' });
    assert.equal(harness.asked.length, 1);
    assert.equal(harness.asked[0]!.summary, 'Run command');
    assert.equal(harness.asked[0]!.command, 'touch marker');
    assert.equal(existsSync(join(ws.root, 'marker')), false);
  });

  test('feedback given with an approval is not repeated in the output (the projection adds it from approval_answered)', async () => {
    harness.policy = DEFAULT_POLICY;
    harness.answers = [{ approved: true, feedback: 'fine, once' }];
    const output = resultText(await harness.run(tool, { command: 'echo hi', requires_approval: 'true' }));
    assert.equal(output, 'Exit code: 0\nOutput (stdout and stderr merged in the order printed):\nhi');
  });

  test('safe commands run without a question when the policy allows them', async () => {
    harness.policy = { ...DEFAULT_POLICY, safeCommands: true };
    resultText(await harness.run(tool, { command: 'touch marker', requires_approval: 'false' }));
    assert.equal(harness.asked.length, 0);
    assert.equal(existsSync(join(ws.root, 'marker')), true);

    harness.answers = [{ approved: false }];
    assert.deepEqual(await harness.run(tool, { command: 'touch risky', requires_approval: 'true' }), { kind: 'rejected', feedback: undefined });
    assert.equal(harness.asked.length, 1);
    assert.equal(existsSync(join(ws.root, 'risky')), false);
  });

  test('a command that cannot start is an error, not a mistake', async () => {
    const noRunner = new ToolHarness(ws.root);
    noRunner.policy = APPROVE_ALL_POLICY;
    const thrown = await noRunner.run(tool, { command: 'true', requires_approval: 'false' });
    assert.deepEqual(thrown, { kind: 'error', error: 'Could not run the command: this harness has no process runner; set harness.processes', mistake: false });

    const missingFolder = new ToolHarness(join(ws.root, 'missing'));
    missingFolder.processes = new ChildProcessRunner();
    missingFolder.policy = APPROVE_ALL_POLICY;
    const rejected = await missingFolder.run(tool, { command: 'true', requires_approval: 'false' });
    assert.equal(rejected.kind, 'error');
    assert.equal(rejected.kind === 'error' && rejected.mistake, false);
    assert.match(rejected.kind === 'error' ? rejected.error : '', /^Could not run the command: Could not start .* in .*missing/);
  });
});

describe('execute_command and .smithignore', () => {
  test('a command naming an ignored path asks even when every command is auto-approved, and the model is told', async () => {
    const ws = createTempWorkspace();
    try {
      ws.write('.smithignore', 'secrets/\n');
      ws.write('secrets/key.txt', 'hunter2\n');
      const harness = new ToolHarness(ws.root);
      harness.policy = APPROVE_ALL_POLICY;
      harness.ignore = await loadSmithIgnore(ws.root);
      harness.processes = new ChildProcessRunner();
      const tool = createExecuteCommandTool(new CommandSessions());
      harness.answers = [{ approved: false, feedback: 'leave the secrets alone' }, { approved: true }];
      const refused = await harness.run(tool, { command: 'cat secrets/key.txt', requires_approval: 'false' });
      assert.deepEqual(refused, { kind: 'rejected', feedback: 'leave the secrets alone' });
      assert.match(harness.asked[0]!.reason ?? '', /names secrets\/key\.txt, which \.smithignore excludes/);
      const allowed = await harness.run(tool, { command: 'wc -l "secrets/key.txt"', requires_approval: 'false' });
      assert.equal(allowed.kind, 'result');
      assert.match(allowed.kind === 'result' ? allowed.output : '', /Note: The command names secrets\/key\.txt/);
      // Commands that name no ignored path still run without a question.
      const plain = await harness.run(tool, { command: 'echo hello', requires_approval: 'false' });
      assert.equal(plain.kind, 'result');
      assert.equal(harness.asked.length, 2);
    } finally {
      ws.dispose();
    }
  });
});
