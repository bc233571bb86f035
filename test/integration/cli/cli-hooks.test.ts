// Hooks from the settings file, as Claude Code writes them: PreToolUse blocks, PostToolUse and Stop
// talk back to the model, UserPromptSubmit adds context or refuses; a workspace's hooks wait for trust.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { allText, lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { eventually, isPidAlive } from '../../helpers/pid-liveness.js';

const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` });
const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };
const hook = (command: string) => [{ hooks: [{ type: 'command', command }] }];

describe('smith CLI: hooks', () => {
  const fx = useAgentFixture();

  test('PreToolUse blocks with exit 2, PostToolUse and Stop talk back, UserPromptSubmit adds context', async () => {
    fx.ws.write('keep.txt', 'precious');
    const settings = {
      hooks: {
        UserPromptSubmit: hook('echo "This project uses pnpm."'),
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'if grep -q "rm -f"; then echo "deleting is not allowed here" >&2; exit 2; fi' }] },
        ],
        PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'echo "run the formatter next" >&2; exit 2' }] }],
        Stop: hook('cat > "$SMITH_PROJECT_DIR/stop-input.json"; echo "run the tests first" >&2; exit 2'),
      },
    };
    writeFileSync(join(fx.storage, 'settings.json'), JSON.stringify(settings));
    fx.server.enqueue(command('rm -f keep.txt'), { text: '<write_to_file>\n<path>a.ts</path>\n<content>\nx\n</content>\n</write_to_file>' }, done, done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Clean up'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(allText(fx.server.requestAt(0)), /<hook_context>\nThis project uses pnpm\.\n<\/hook_context>/);
    assert.ok(existsSync(join(fx.ws.root, 'keep.txt')));
    assert.match(lastUserText(fx.server.requestAt(1)), /A PreToolUse hook of the user blocked this call, so it was not run: deleting is not allowed here/);
    assert.match(lastUserText(fx.server.requestAt(2)), /\[A PostToolUse hook of the user says: run the formatter next\]/);
    assert.match(lastUserText(fx.server.requestAt(3)), /The task is not finished yet \(a Stop hook of the user says\): run the tests first/);
    assert.equal(fx.server.requests.length, 4, 'the Stop hook sends the model back once per run');
    assert.match(fx.ws.read('stop-input.json'), /"hook_event_name":"Stop".*"result":"Done\."/);
  });

  test('SessionStart adds context for the model; Notification hears of each approval asked', async () => {
    const settings = {
      hooks: {
        SessionStart: hook('cat > "$SMITH_PROJECT_DIR/session.json"; echo "Staging is down today."'),
        Notification: hook('cat >> "$SMITH_PROJECT_DIR/notified.jsonl"'),
      },
    };
    writeFileSync(join(fx.storage, 'settings.json'), JSON.stringify(settings));
    fx.server.enqueue({ text: '<execute_command>\n<command>echo hi</command>\n<requires_approval>true</requires_approval>\n</execute_command>' }, done);
    // stdin carries no answers: the approval is refused, after the Notification hook ran.
    const run = await runCli({ args: [...fx.cliArgs(), 'Say hi'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(allText(fx.server.requestAt(0)), /<hook_context>\nStaging is down today\.\n<\/hook_context>/);
    const session = JSON.parse(fx.ws.read('session.json')) as Record<string, unknown>;
    assert.deepEqual([session.hook_event_name, session.cwd, session.source, typeof session.task_id], ['SessionStart', fx.ws.root, 'startup', 'string']);
    const notified = fx.ws
      .read('notified.jsonl')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(notified.length, 1);
    assert.equal(notified[0]!.hook_event_name, 'Notification');
    assert.match(String(notified[0]!.message), /^Smith needs your approval: /);
  });

  test("a UserPromptSubmit hook can refuse the task; a workspace's hooks run only when trusted", async () => {
    writeFileSync(join(fx.storage, 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: hook('echo "no tasks on Fridays" >&2; exit 2') } }));
    const refused = await runCli({ args: [...fx.cliArgs(), 'Do it'] });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /A UserPromptSubmit hook refused the message: no tasks on Fridays/);
    assert.equal(fx.server.requests.length, 0);

    writeFileSync(join(fx.storage, 'settings.json'), '{}');
    fx.ws.write('.smith/settings.json', JSON.stringify({ hooks: { UserPromptSubmit: hook('touch "$SMITH_PROJECT_DIR/hook-ran"') } }));
    fx.server.enqueue(done);
    const untrusted = await runCli({ args: [...fx.cliArgs(), 'Do it'] });
    assert.equal(untrusted.code, 0, untrusted.stderr);
    assert.match(untrusted.stderr, /1 hook in .*\.smith\/settings\.json not used: this workspace is not trusted/);
    assert.equal(existsSync(join(fx.ws.root, 'hook-ran')), false);
    fx.server.enqueue(done);
    const trusted = await runCli({ args: [...fx.cliArgs(), '--trust-workspace', 'Do it'] });
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.ok(existsSync(join(fx.ws.root, 'hook-ran')));
  });

  test("SessionStart runs before the first UserPromptSubmit; every hook gets Claude Code's common fields", async () => {
    const record = (name: string) => hook(`cat > "$SMITH_PROJECT_DIR/${name}.json"; echo ${name} >> "$SMITH_PROJECT_DIR/order.txt"`);
    writeFileSync(
      join(fx.storage, 'settings.json'),
      JSON.stringify({
        hooks: { SessionStart: record('SessionStart'), UserPromptSubmit: record('UserPromptSubmit'), PreToolUse: record('PreToolUse'), Stop: record('Stop') },
      }),
    );
    fx.server.enqueue(command('echo hi'), done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Say hi'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    // PreToolUse runs for the command and for attempt_completion.
    assert.deepEqual(fx.ws.read('order.txt').trim().split('\n'), ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PreToolUse', 'Stop']);
    const { taskId } = JSON.parse(run.stdout) as { taskId: string };
    const transcript = join(fx.storage, 'tasks', taskId, 'events.jsonl');
    for (const event of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop']) {
      const input = JSON.parse(fx.ws.read(`${event}.json`)) as Record<string, unknown>;
      // --yes approves edits and commands but still asks outside the workspace: Claude Code's acceptEdits.
      assert.deepEqual(
        [input.session_id, input.transcript_path, input.cwd, input.hook_event_name, input.permission_mode],
        [taskId, transcript, fx.ws.root, event, 'acceptEdits'],
        event,
      );
    }
    assert.ok(existsSync(transcript));
    assert.equal(JSON.parse(fx.ws.read('UserPromptSubmit.json')).prompt, 'Say hi');
    assert.equal(JSON.parse(fx.ws.read('SessionStart.json')).source, 'startup');
    // Logged in the order they ran, before the first request.
    const events = readFileSync(transcript, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; event?: string });
    assert.deepEqual(
      events
        .filter((e) => e.type === 'hooks_ran')
        .map((e) => e.event)
        .slice(0, 2),
      ['SessionStart', 'UserPromptSubmit'],
    );
    assert.equal(events.filter((e) => e.type === 'hooks_ran' && e.event === 'SessionStart').length, 1, 'SessionStart runs once');
  });

  test('in Plan mode and with nothing asked at all the hooks read plan and bypassPermissions', async () => {
    writeFileSync(
      join(fx.storage, 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: hook('{ cat; echo; } >> "$SMITH_PROJECT_DIR/prompts.jsonl"') } }),
    );
    fx.server.enqueue({ text: '<plan_mode_respond>\n<response>A plan.</response>\n</plan_mode_respond>' });
    const plan = await runCli({ args: [...fx.cliArgs(), '--mode', 'plan', 'Plan it'], stdin: '' });
    assert.equal(plan.code, 0, plan.stderr);
    fx.server.enqueue(done);
    const all = await runCli({ args: [...fx.cliArgs(), '--yes', '--allow-outside-workspace', 'Do it'], stdin: '' });
    assert.equal(all.code, 0, all.stderr);
    const modes = fx.ws
      .read('prompts.jsonl')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { permission_mode: string }).permission_mode);
    assert.deepEqual(modes, ['plan', 'bypassPermissions']);
  });

  test('a hook that leaves a background child holding its output does not hang the task, and the child is ended', async () => {
    const pidFile = join(fx.ws.root, 'child.pid');
    const background = `nohup sh -c 'echo $$ > "${pidFile}"; exec sleep 1000' & setsid sh -c 'sleep 1000' &\nwhile [ ! -s "${pidFile}" ]; do sleep 0.05; done`;
    writeFileSync(
      join(fx.storage, 'settings.json'),
      JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: background, timeout: 600 }] }] } }),
    );
    fx.server.enqueue(command('echo hi'), done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Say hi'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /took longer than/);
    const pid = Number(fx.ws.read('child.pid').trim());
    assert.ok(await eventually(() => !isPidAlive(pid)), `process ${pid} outlived its hook`);
  });
});
