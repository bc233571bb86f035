import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { startCliOnPty } from '../../helpers/cli-pty.js';

describe('smith REPL', () => {
  const fixture = useAgentFixture();

  test('the REPL runs a task, continues it, shows its events and history, and Ctrl+C stops a step', async () => {
    const { server, ws } = fixture;
    ws.write('a.txt', 'alpha\n');
    server.enqueue(
      { text: '<read_file>\n<path>a.txt</path>\n</read_file>' },
      { text: '<attempt_completion>\n<result>It says alpha.</result>\n</attempt_completion>' },
      (request) => {
        const contents = (request.body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
        assert.match(contents, /<user_message>\nAnd in capitals\?\n<\/user_message>/);
        assert.match(contents, /1 \| alpha/);
        return { text: '<attempt_completion>\n<result>ALPHA</result>\n</attempt_completion>' };
      },
      { fault: 'hang' },
    );
    // A real pseudo-terminal, so the CLI starts its REPL.
    const repl = startCliOnPty([...fixture.cliArgs(), '--yes']);
    await repl.type('What does a.txt say?', 1);
    await repl.type('And in capitals?', 2);
    await repl.type('/events', 3);
    await repl.type('/history', 4);
    await repl.type('/mode plan', 5);
    await repl.type('Now hang', 6);
    for (let waited = 0; server.requests.length < 4; waited += 50) {
      assert.ok(waited < 20_000, 'the fourth request never came');
      await sleep(50);
    }
    repl.interrupt();
    await repl.type('/exit', 7);
    assert.equal(await repl.exited, 0);
    const out = repl.output;
    assert.match(out, /It says alpha\./);
    assert.match(out, /ALPHA/);
    assert.match(out, /"type":"task_started"/);
    assert.match(out, /\d{8}T\d{6}-\w+\s+completed\s+What does a\.txt say\?/);
    assert.match(out, /Plan\/Act: plan/);
    assert.match(out, /Stopping the current step/);
    assert.match(out, /Task stopped\./);
  });
});
