// A human-output run whose piped input has ended does not print a question it cannot ask.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

describe('smith CLI: a question with no input left', () => {
  const fx = useAgentFixture();

  test('the question is not printed; the model is told nobody answered; piped answers still work', async () => {
    fx.server.enqueue(
      { text: '<ask_followup_question>\n<question>Which colour should the button be?</question>\n</ask_followup_question>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Style the button'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /Which colour should the button be\?/);
    assert.match(run.stderr, /no input is left to answer it/);
    assert.ok(fx.server.requests.length >= 2);

    fx.server.enqueue(
      { text: '<ask_followup_question>\n<question>Which colour?</question>\n</ask_followup_question>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const before = fx.server.requests.length;
    const piped = await runCli({ args: [...fx.cliArgs(), '--yes', 'Style the button'], stdin: 'Blue\n' });
    assert.equal(piped.code, 0, piped.stderr);
    assert.match(piped.stderr, /\? Which colour\?/);
    assert.match(lastUserText(fx.server.requestAt(before + 1)), /Blue/);
  });

  test('an approval is not prompted for either: the call is rejected, saying why', async () => {
    fx.server.enqueue(
      { text: '<execute_command>\n<command>echo hi</command>\n<requires_approval>true</requires_approval>\n</execute_command>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const run = await runCli({ args: [...fx.cliArgs(), 'Say hi'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /Approve\?/);
    assert.match(run.stderr, /\? Run command\n {2}\$ echo hi\n {2}\(no input is left to answer it: rejected/);
    assert.match(lastUserText(fx.server.requestAt(1)), /could not be asked/);
  });
});
