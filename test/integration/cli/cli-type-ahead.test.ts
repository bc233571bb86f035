import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { RecordedRequest } from '../../fixtures/scripted-llm-server.js';
import { allText, lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { startCliOnPty, type PtyCli } from '../../helpers/cli-pty.js';
import { gate } from '../../helpers/gate.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** Waits until the scripted server has received `count` requests. */
async function requestsReached(requests: readonly RecordedRequest[], count: number, cli: PtyCli): Promise<void> {
  for (let waited = 0; requests.length < count; waited += 50) {
    assert.ok(waited < 30_000, `request #${count} never came; output so far:\n${cli.output}`);
    await sleep(50);
  }
}

describe('lines typed while the model works on a terminal', () => {
  const fx = useAgentFixture();

  for (const shape of ['REPL', 'one-shot'] as const) {
    test(`${shape}: a "y" typed during streaming is a queued message, never the answer to the approval shown later`, async () => {
      const typed = gate();
      fx.server.enqueue(
        {
          text: '<write_to_file>\n<path>new.txt</path>\n<content>\nomega\n</content>\n</write_to_file>',
          // The response stays open until the test has typed its line.
          hold: { afterEvents: 2, until: typed.promise },
        },
        { text: '<attempt_completion>\n<result>Left it alone.</result>\n</attempt_completion>' },
      );
      const args = [...fx.cliArgs()];
      const cli = startCliOnPty(shape === 'REPL' ? args : [...args, 'Create new.txt']);
      if (shape === 'REPL') await cli.type('Create new.txt', 1);
      await requestsReached(fx.server.requests, 1, cli);
      await cli.type('y');
      await cli.waitFor(/queued: y/);
      typed.open();

      await cli.waitFor(/Approve\? \[y\]es/);
      // The "y" typed before the question did not answer it: nothing is written while it waits.
      assert.equal(existsSync(join(fx.ws.root, 'new.txt')), false);
      assert.equal(fx.server.requests.length, 1);
      const asked = cli.output.length;
      await cli.type('n');
      await cli.waitFor(/Left it alone\./, asked);
      if (shape === 'REPL') await cli.type('/exit', 2);
      assert.equal(await cli.exited, 0, cli.output);

      assert.equal(existsSync(join(fx.ws.root, 'new.txt')), false);
      const next = lastUserText(fx.server.requestAt(1));
      assert.match(next, /The user denied this operation/);
      assert.match(next, /<user_message>\ny\n<\/user_message>/);
      assert.ok(next.indexOf('denied') < next.indexOf('<user_message>\ny'), 'the queued message comes after the tool result');
    });
  }

  test('a message queued while the last step runs is delivered after completion, as a follow-up', async () => {
    const typed = gate();
    fx.server.enqueue(
      { text: '<attempt_completion>\n<result>First answer.</result>\n</attempt_completion>', hold: { afterEvents: 2, until: typed.promise } },
      { text: '<attempt_completion>\n<result>Second answer.</result>\n</attempt_completion>' },
    );
    const cli = startCliOnPty([...fx.cliArgs(), '--yes', 'Answer twice']);
    await requestsReached(fx.server.requests, 1, cli);
    await cli.type('and add more detail');
    await cli.waitFor(/queued: and add more detail/);
    typed.open();
    assert.equal(await cli.exited, 0, cli.output);
    assert.equal(fx.server.requests.length, 2);
    assert.match(lastUserText(fx.server.requestAt(1)), /<user_message>\nand add more detail\n<\/user_message>/);
    assert.match(cli.output, /Second answer\./);
  });
});

describe('slash commands at every prompt', () => {
  const fx = useAgentFixture();

  test('/mode act at a Plan-mode question switches the mode and is not sent as the reply', async () => {
    fx.server.enqueue(
      { text: '<plan_mode_respond>\n<response>I will add a README. Shall I?</response>\n</plan_mode_respond>' },
      { text: '<attempt_completion>\n<result>Done planning.</result>\n</attempt_completion>' },
    );
    const cli = startCliOnPty([...fx.cliArgs(), '--mode', 'plan']);
    await cli.type('Plan a README', 1);
    await cli.waitFor(/Shall I\?[\s\S]*> /);
    const asked = cli.output.length;
    await cli.type('/mode act');
    await cli.waitFor(/Plan\/Act: act[\s\S]*> /, asked);
    assert.equal(fx.server.requests.length, 1, 'the command must not answer the question');
    await cli.type('Yes, go ahead');
    await cli.waitFor(/Done planning\./);
    await cli.type('/exit', 2);
    assert.equal(await cli.exited, 0, cli.output);

    const reply = allText(fx.server.requestAt(1));
    assert.match(reply, /<user_message>\nYes, go ahead\n<\/user_message>/);
    assert.match(reply, /\[The user switched to ACT mode\.\]/);
    assert.doesNotMatch(reply, /\/mode act/);
  });
});
