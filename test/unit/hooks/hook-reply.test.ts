import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseHookReply } from '../../../src/core/hooks/hook-reply.js';
import { hookRunLine, isNoteworthyHookRun, type HookRun } from '../../../src/shared/hook-runs.js';

describe("a hook's JSON reply", () => {
  test("Claude Code's fields: hookSpecificOutput wins over the older top-level decision", () => {
    const reply = parseHookReply(
      JSON.stringify({
        decision: 'approve',
        reason: 'old',
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'not on main',
          updatedInput: { command: 'ls' },
        },
        systemMessage: 'checked',
      }),
    );
    assert.deepEqual(reply, { decision: 'block', reason: 'not on main', updatedInput: { command: 'ls' }, systemMessage: 'checked' });
    assert.deepEqual(parseHookReply('{"decision":"approve","reason":"fine"}'), { decision: 'allow', reason: 'fine' });
    assert.deepEqual(parseHookReply('{"hookSpecificOutput":{"permissionDecision":"ask"}}'), { decision: 'ask' });
    assert.deepEqual(parseHookReply('{"continue":false,"stopReason":"build is red"}'), { decision: 'block', reason: 'build is red' });
    assert.deepEqual(parseHookReply('{"hookSpecificOutput":{"additionalContext":"uses pnpm"}}'), { additionalContext: 'uses pnpm' });
  });

  test('plain text, broken JSON and odd values are no reply or are left out', () => {
    assert.equal(parseHookReply('This project uses pnpm.'), undefined);
    assert.equal(parseHookReply('{"decision": '), undefined);
    assert.equal(parseHookReply('[1, 2]'), undefined);
    assert.deepEqual(parseHookReply('{"decision":"maybe","reason":42,"hookSpecificOutput":{"updatedInput":"rm -rf /"}}'), {});
  });

  test('a run is one line; quiet successes are not shown in the chat', () => {
    const run: HookRun = { command: './check.sh', source: 'settings.json', result: 'blocked', exitCode: 2, durationMs: 12, reason: 'not on main' };
    assert.equal(hookRunLine('PreToolUse', 'execute_command', run), 'PreToolUse hook "./check.sh" blocked execute_command: not on main');
    const quiet: HookRun = { ...run, result: 'ok', exitCode: 0, reason: undefined } as HookRun;
    assert.equal(hookRunLine('Stop', undefined, quiet), 'Stop hook "./check.sh" ran');
    assert.equal(isNoteworthyHookRun(quiet), false);
    assert.equal(isNoteworthyHookRun({ ...quiet, addedContext: true }), true);
    assert.equal(hookRunLine('SessionStart', undefined, { ...quiet, addedContext: true }), 'SessionStart hook "./check.sh" ran (added context)');
  });
});
