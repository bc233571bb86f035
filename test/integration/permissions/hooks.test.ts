import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runHooks, type HookSettings } from '../../../src/core/hooks/hooks.js';

const cwd = process.cwd();
const settings = (command: string, matcher?: string, timeoutSeconds = 30): HookSettings => ({ PreToolUse: [{ ...(matcher ? { matcher } : {}), hooks: [{ command, timeoutSeconds, source: 'test' }] }] });

describe('runHooks', () => {
  test('the event arrives as JSON on stdin, with Claude Code\'s tool names', async () => {
    const outcome = await runHooks(settings('cat >&2; exit 2'), 'PreToolUse', { tool_input: { command: 'ls' } }, cwd, 'execute_command');
    assert.deepEqual(JSON.parse(outcome.blocked ?? '{}'), { hook_event_name: 'PreToolUse', cwd, tool_name: 'Bash', tool_input: { command: 'ls' } });
  });

  test('matchers are regular expressions over the tool\'s names; a JSON decision blocks too', async () => {
    const block = settings('echo \'{"decision":"block","reason":"not on main"}\'', 'Write|Edit');
    assert.equal((await runHooks(block, 'PreToolUse', {}, cwd, 'write_to_file')).blocked, 'not on main');
    assert.equal((await runHooks(block, 'PreToolUse', {}, cwd, 'replace_in_file')).blocked, 'not on main');
    assert.equal((await runHooks(block, 'PreToolUse', {}, cwd, 'read_file')).blocked, undefined);
  });

  test('another exit code, or a timeout that kills the hook\'s processes, is an error that blocks nothing', async () => {
    const failed = await runHooks(settings('echo oops >&2; exit 1'), 'PreToolUse', {}, cwd, 'read_file');
    assert.deepEqual([failed.blocked, failed.errors], [undefined, ['PreToolUse hook "echo oops >&2; exit 1" (test) exited with 1: oops']]);
    const slow = await runHooks(settings('sleep 30 & sleep 30', undefined, 1), 'PreToolUse', {}, cwd, 'read_file');
    assert.deepEqual(slow.errors, ['PreToolUse hook "sleep 30 & sleep 30" (test) took longer than 1 s and was stopped']);
    assert.equal(slow.blocked, undefined);
  });
});
