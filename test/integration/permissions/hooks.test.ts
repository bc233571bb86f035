import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { DEFAULT_HOOK_TIMEOUT_SECONDS, hookTimeoutSeconds, runHooks, type HookSettings } from '../../../src/core/hooks/hooks.js';
import type { HookSession } from '../../../src/core/hooks/hook-session.js';
import { eventually, isPidAlive } from '../../helpers/pid-liveness.js';

const cwd = process.cwd();
const session: HookSession = { cwd, sessionId: 'task-1', transcriptPath: '/storage/tasks/task-1/events.jsonl', permissionMode: 'acceptEdits' };
const settings = (command: string, matcher?: string, timeoutSeconds = 30): HookSettings => ({
  PreToolUse: [{ ...(matcher ? { matcher } : {}), hooks: [{ command, timeoutSeconds, source: 'test' }] }],
});

describe('runHooks', () => {
  test("the event arrives as JSON on stdin, with Claude Code's common fields and tool names", async () => {
    const outcome = await runHooks(settings('cat >&2; exit 2'), 'PreToolUse', { tool_input: { command: 'ls' } }, session, 'execute_command');
    assert.deepEqual(JSON.parse(outcome.blocked ?? '{}'), {
      session_id: 'task-1',
      transcript_path: '/storage/tasks/task-1/events.jsonl',
      cwd,
      permission_mode: 'acceptEdits',
      hook_event_name: 'PreToolUse',
      task_id: 'task-1',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
  });

  test("matchers are regular expressions over the tool's names; a JSON decision blocks too", async () => {
    const block = settings('echo \'{"decision":"block","reason":"not on main"}\'', 'Write|Edit');
    assert.equal((await runHooks(block, 'PreToolUse', {}, session, 'write_to_file')).blocked, 'not on main');
    assert.equal((await runHooks(block, 'PreToolUse', {}, session, 'replace_in_file')).blocked, 'not on main');
    assert.equal((await runHooks(block, 'PreToolUse', {}, session, 'read_file')).blocked, undefined);
  });

  test("another exit code, or a timeout that kills the hook's processes, is an error that blocks nothing", async () => {
    const failed = await runHooks(settings('echo oops >&2; exit 1'), 'PreToolUse', {}, session, 'read_file');
    assert.deepEqual([failed.blocked, failed.errors], [undefined, ['PreToolUse hook "echo oops >&2; exit 1" (test) exited with 1: oops']]);
    const slow = await runHooks(settings('sleep 30 & sleep 30', undefined, 1), 'PreToolUse', {}, session, 'read_file');
    assert.deepEqual(slow.errors, ['PreToolUse hook "sleep 30 & sleep 30" (test) took longer than 1 s and was stopped']);
    assert.equal(slow.blocked, undefined);
  });

  test('a hook without a usable timeout runs under the default one: absent, zero, negative, infinite or past what a timer holds', async () => {
    assert.equal(DEFAULT_HOOK_TIMEOUT_SECONDS, 60);
    for (const timeout of [undefined, 0, -5, Number.NaN, Number.POSITIVE_INFINITY, '30', null]) assert.equal(hookTimeoutSeconds(timeout), 60, String(timeout));
    assert.equal(hookTimeoutSeconds(2.5), 2.5);
    // Built in code, as the type allows: no timeoutSeconds at all.
    const untimed = { UserPromptSubmit: [{ hooks: [{ command: 'sleep 0.3; echo ran', source: 'test' }] }] } satisfies HookSettings;
    const ran = await runHooks(untimed, 'UserPromptSubmit', { prompt: 'hi' }, session);
    assert.deepEqual([ran.context, ran.errors, ran.runs.map((r) => r.result)], [['ran'], [], ['ok']]);
    // 1e10 s is past the longest timer (about 24.8 days): it must not turn into "stop at once".
    const huge = { UserPromptSubmit: [{ hooks: [{ command: 'sleep 0.3; echo ran', timeoutSeconds: 1e10, source: 'test' }] }] } satisfies HookSettings;
    const long = await runHooks(huge, 'UserPromptSubmit', { prompt: 'hi' }, session);
    assert.deepEqual([long.context, long.errors], [['ran'], []]);
  });
});

describe('a hook that leaves a process behind', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // Each background process writes its own pid, then becomes `sleep` holding the hook's stdout and stderr.
  const sleeper = (file: string) => `sh -c 'echo $$ > "${file}"; exec sleep 1000'`;
  const shapes: Record<string, (file: string) => string> = {
    'cmd &': (file) => `${sleeper(file)} &`,
    'setsid cmd &': (file) => `setsid ${sleeper(file)} &`,
    'nohup cmd &': (file) => `nohup ${sleeper(file)} &`,
    '(cmd &)': (file) => `(${sleeper(file)} &)`,
    'a daemonised grandchild (double fork, setsid)': (file) => `sh -c "setsid sh -c 'echo \\$\\$ > \\"${file}\\"; exec sleep 1000' &" &`,
  };

  for (const [shape, command] of Object.entries(shapes)) {
    test(`${shape}: the hook ends when its shell exits, its answer is read, and the process is gone`, async () => {
      dir = mkdtempSync(join(tmpdir(), 'smith-hook-'));
      const file = join(dir, 'pid');
      // The hook's timeout is far away: the hook must end without it.
      const hook = `${command(file)}\nwhile [ ! -s "${file}" ]; do sleep 0.05; done\necho '{"decision":"block","reason":"answered"}'`;
      const outcome = await runHooks(settings(hook, undefined, 600), 'PreToolUse', {}, session, 'read_file');
      assert.deepEqual(outcome.errors, []);
      assert.equal(outcome.blocked, 'answered');
      const pid = Number(readFileSync(file, 'utf8').trim());
      assert.ok(pid > 0);
      assert.ok(await eventually(() => !isPidAlive(pid)), `process ${pid} (${shape}) outlived its hook`);
    });
  }

  test('a hook that never exits ends at its timeout, with its children', async () => {
    dir = mkdtempSync(join(tmpdir(), 'smith-hook-'));
    const file = join(dir, 'pid');
    const outcome = await runHooks(
      settings(`setsid ${sleeper(file)} &\ntrap '' TERM\nwhile :; do sleep 1; done`, undefined, 2),
      'PreToolUse',
      {},
      session,
      'read_file',
    );
    assert.equal(outcome.errors.length, 1);
    assert.match(outcome.errors[0]!, /took longer than 2 s and was stopped/);
    assert.equal(outcome.runs[0]?.result, 'timed_out');
    assert.ok(existsSync(file));
    const pid = Number(readFileSync(file, 'utf8').trim());
    assert.ok(await eventually(() => !isPidAlive(pid)), `process ${pid} outlived its hook`);
  });
});
