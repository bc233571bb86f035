// Hooks that answer in JSON, in Claude Code's shape: a PreToolUse hook allows a call, changes its
// input or asks for it; a PostToolUse hook adds context; every run is a hooks_ran event in the log.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>` });
const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

const PRE_TOOL_USE = `input=$(cat)
case "$input" in
  *'echo one'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"known safe"}}';;
  *'echo two'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo changed"}}}';;
  *'echo three'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"double-check this one"}}';;
  *'echo four'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -f keep.txt"}}}';;
esac
`;

describe('smith CLI: hook decisions', () => {
  const fx = useAgentFixture();

  test('allow runs a call unasked, updatedInput changes it (and is judged again), ask asks even with --yes', async () => {
    fx.ws.write('pre.sh', PRE_TOOL_USE);
    fx.ws.write('keep.txt', 'precious');
    const settings = {
      permissions: { deny: ['Bash(rm:*)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh pre.sh' }] }],
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint is clean"}}'` }],
          },
        ],
      },
    };
    writeFileSync(join(fx.storage, 'settings.json'), JSON.stringify(settings));
    fx.server.enqueue(command('echo one'), command('echo two'), command('echo three'), command('echo four'), done);
    // stdin carries no answers: whatever is asked is refused, so a run that needed asking shows.
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Echo things'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    const { taskId } = JSON.parse(run.stdout) as { taskId: string };

    assert.match(lastUserText(fx.server.requestAt(1)), /one[\s\S]*\[A PostToolUse hook of the user adds: lint is clean\]/);
    assert.match(lastUserText(fx.server.requestAt(2)), /Output[^\n]*\nchanged\n/);
    assert.match(
      lastUserText(fx.server.requestAt(2)),
      /\[A PreToolUse hook of the user changed this call's input before it ran, to: \{"command":"echo changed"\}\]/,
    );
    assert.match(lastUserText(fx.server.requestAt(3)), /rejected|denied|did not approve/i);
    assert.match(lastUserText(fx.server.requestAt(4)), /The user's permission rule Bash\(rm:\*\) .* denies this call/);
    assert.equal(fx.ws.read('keep.txt'), 'precious');

    const events = readFileSync(join(fx.storage, 'tasks', taskId, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, any>);
    const pre = events.filter((e) => e.type === 'hooks_ran' && e.event === 'PreToolUse');
    assert.deepEqual(
      pre.map((e) => [e.tool, e.runs.map((r: any) => r.result), e.input?.command]),
      [
        ['execute_command', ['allowed'], undefined],
        ['execute_command', ['allowed'], 'echo changed'],
        ['execute_command', ['ask'], undefined],
        ['execute_command', ['allowed'], 'rm -f keep.txt'],
      ],
    );
    assert.equal(pre[1]!.runs[0].changedInput, true);
    const autoApproved = events.filter((e) => e.type === 'tool_auto_approved').map((e) => e.rule);
    assert.deepEqual(autoApproved, ['PreToolUse hook', 'PreToolUse hook']);
    const asked = events.find((e) => e.type === 'approval_asked');
    assert.equal(asked?.request.reason, 'A PreToolUse hook asks for this call: double-check this one');
    const post = events.filter((e) => e.type === 'hooks_ran' && e.event === 'PostToolUse');
    assert.ok(post.length >= 2 && post.every((e) => e.runs[0].addedContext === true), JSON.stringify(post));
    assert.match(run.stderr, /PreToolUse hook "sh pre\.sh" asked for approval of execute_command: double-check this one/);
  });

  test("a hook's allow does not reach outside the workspace: it is still asked with --yes, and runs unasked only with --allow-outside-workspace", async () => {
    const outside = mkdtempSync(join(tmpdir(), 'smith-outside-'));
    try {
      writeFileSync(join(outside, 'secret.txt'), 'outside words');
      const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"reads are fine"}}'`;
      writeFileSync(
        join(fx.storage, 'settings.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: allow }] }] } }),
      );
      const read = { text: `<read_file>\n<path>${join(outside, 'secret.txt')}</path>\n</read_file>` };
      fx.server.enqueue(read, done);
      const asked = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Read it'], stdin: '' });
      assert.equal(asked.code, 0, asked.stderr);
      const first = fx.server.requests.length;
      assert.doesNotMatch(lastUserText(fx.server.requestAt(first - 1)), /outside words/);
      assert.match(lastUserText(fx.server.requestAt(first - 1)), /rejected|denied|did not approve/i);
      const { taskId } = JSON.parse(asked.stdout) as { taskId: string };
      const events = readFileSync(join(fx.storage, 'tasks', taskId, 'events.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, any>);
      assert.equal(
        events.find((e) => e.type === 'approval_asked')?.request.reason,
        "The path is outside the workspace (a PreToolUse hook's allow does not reach outside it).",
      );
      assert.equal(
        events.some((e) => e.type === 'tool_auto_approved'),
        false,
      );

      fx.server.enqueue(read, done);
      const allowed = await runCli({ args: [...fx.cliArgs(), '--yes', '--allow-outside-workspace', 'Read it'], stdin: '' });
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.match(lastUserText(fx.server.requestAt(fx.server.requests.length - 1)), /outside words/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
