import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli, spawnCli } from '../../helpers/cli-runner.js';
import { startCliOnPty } from '../../helpers/cli-pty.js';

describe('smith --resume and /resume', () => {
  const fixture = useAgentFixture();

  test('a task killed mid-run resumes from its log, and the model is told it was interrupted', async () => {
    const { server, ws, storage } = fixture;
    const args = [...fixture.cliArgs(), '--yes'];
    ws.write('notes.md', '# Notes\n');
    server.enqueue({ text: '<read_file>\n<path>notes.md</path>\n</read_file>' }, { fault: 'hang' });
    const { child, done } = spawnCli({ args: [...args, 'Summarise the notes'] });
    for (let waited = 0; server.requests.length < 2; waited += 50) {
      assert.ok(waited < 20_000, 'the CLI never made its second request');
      await sleep(50);
    }
    child.kill('SIGKILL');
    await done;

    const [taskId] = readdirSync(join(storage, 'tasks'));
    assert.ok(taskId);
    // Checkpoints are taken beside the requests, so where they land among these events varies.
    const before = readFileSync(join(storage, 'tasks', taskId, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).type)
      .filter((type) => type !== 'checkpoint_created');
    assert.deepEqual(before.slice(0, 8), [
      'task_started',
      'request_started',
      'context_measured',
      'model_response',
      'tool_requested',
      'tool_auto_approved',
      'tool_result',
      'request_started',
    ]);

    server.enqueue((request) => {
      const messages = request.body.messages as Array<{ role: string; content: string }>;
      const last = messages.at(-1)!;
      assert.equal(last.role, 'user');
      assert.match(last.content, /\[TASK RESUMPTION\] This task was interrupted/);
      // The history before the interruption is intact: the read and its result.
      assert.ok(messages.some((m) => m.role === 'assistant' && m.content.includes('<read_file>')));
      assert.ok(messages.some((m) => m.content.includes("[read_file for 'notes.md'] Result:\n1 | # Notes")));
      return { text: '<attempt_completion>\n<result>The notes hold one heading.</result>\n</attempt_completion>' };
    });
    const resumed = await runCli({ args: [...args, '--output', 'json', '--resume', taskId] });
    assert.equal(resumed.code, 0, resumed.stderr);
    const summary = JSON.parse(resumed.stdout);
    assert.equal(summary.taskId, taskId);
    assert.equal(summary.result, 'The notes hold one heading.');

    const unknown = await runCli({ args: [...args, '--resume', 'no-such-task'] });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No task with id "no-such-task"/);
  });

  /** Runs a task to completion and returns its id. */
  async function completedTask(args: readonly string[], text: string, result: string): Promise<string> {
    fixture.server.enqueue({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
    const run = await runCli({ args: [...args, '--output', 'json', text] });
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout).taskId;
  }

  test('--resume TASK_ID "message" continues a completed task with the new message', async () => {
    const { server, storage } = fixture;
    const args = [...fixture.cliArgs(), '--yes'];
    const taskId = await completedTask(args, 'Name a colour', 'Blue.');
    server.enqueue((request) => {
      const messages = request.body.messages as Array<{ role: string; content: string }>;
      assert.match(messages.find((m) => m.role === 'user')!.content, /<task>\nName a colour\n<\/task>/);
      assert.ok(messages.some((m) => m.role === 'assistant' && m.content.includes('<result>Blue.</result>')));
      assert.match(messages.at(-1)!.content, /<user_message>\nNow name a fruit\n<\/user_message>/);
      return { text: '<attempt_completion>\n<result>Apple.</result>\n</attempt_completion>' };
    });
    const resumed = await runCli({ args: [...args, '--output', 'json', '--resume', taskId, 'Now name a fruit'] });
    assert.equal(resumed.code, 0, resumed.stderr);
    const summary = JSON.parse(resumed.stdout);
    assert.equal(summary.taskId, taskId);
    assert.equal(summary.result, 'Apple.');
    const events = readFileSync(join(storage, 'tasks', taskId, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      events.filter((e) => e.type === 'user_message').map((e) => e.text),
      ['Now name a fruit'],
    );
  });

  test('/resume TASK_ID in the REPL makes a stored task current; the next message continues it', async () => {
    const { server, storage } = fixture;
    const args = [...fixture.cliArgs(), '--yes'];
    const taskId = await completedTask(args, 'Name an animal', 'A cat.');
    server.enqueue((request) => {
      const messages = request.body.messages as Array<{ role: string; content: string }>;
      assert.match(messages.find((m) => m.role === 'user')!.content, /<task>\nName an animal\n<\/task>/);
      assert.match(messages.at(-1)!.content, /<user_message>\nAnother one\n<\/user_message>/);
      return { text: '<attempt_completion>\n<result>A dog.</result>\n</attempt_completion>' };
    });
    const repl = startCliOnPty(args);
    await repl.type('/resume no-such-task', 1);
    await repl.type(`/resume ${taskId}`, 2);
    await repl.waitFor(new RegExp(`Resumed task ${taskId} \\(completed\\)`));
    await repl.type('Another one', 3);
    await repl.waitFor(/A dog\./);
    await repl.type('/exit', 4);
    assert.equal(await repl.exited, 0, repl.output);
    assert.match(repl.output, /No task with id "no-such-task"/);
    const events = readFileSync(join(storage, 'tasks', taskId, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(events.filter((e) => e.type === 'task_completed').length, 2);
  });
});
