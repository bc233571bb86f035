// --max-cost and --max-iterations stop the task, or, when someone can answer, ask to go on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const list = { text: '<list_files>\n<path>.</path>\n</list_files>', usage: { input: 100_000, output: 1_000 } };
const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };
// $1 per million input tokens: each request of 100,000 tokens costs $0.10 (plus $0.001 of output).
const priced = ['--input-price', '1', '--output-price', '1', '--context-window', '1000000'];

describe('smith CLI: limits', () => {
  const fx = useAgentFixture();

  test('--max-cost stops a task that reached it (no one to ask)', async () => {
    // Only what the task will ask for: the server outlives each test.
    fx.server.enqueue(list, list);
    const run = await runCli({ args: [...fx.cliArgs(), ...priced, '--yes', '--max-cost', '0.15', 'Look around'], stdin: '' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Stopped at \$0\.2020, over the cost limit of \$0\.15, before the task was completed\./);
    assert.equal(fx.server.requests.length, 2);
  });

  test('a small cost limit is named with the digits it has, not rounded to $0.00', async () => {
    // 1,000 input tokens at $1 per million and 1 output token: $0.001001 a request.
    const small = { text: '<list_files>\n<path>.</path>\n</list_files>', usage: { input: 1_000, output: 1 } };
    fx.server.enqueue(small, small, small);
    const run = await runCli({ args: [...fx.cliArgs(), ...priced, '--yes', '--max-cost', '0.0025', 'Look around'], stdin: '' });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Stopped at \$0\.003003, over the cost limit of \$0\.0025, before the task was completed\./);
  });

  test('asked on the way, "Continue" gives another allowance', async () => {
    fx.server.enqueue(list, list, done);
    const run = await runCli({ args: [...fx.cliArgs(), ...priced, '--yes', '--max-iterations', '2', 'Look around'], answers: ['Continue'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /The task reached a limit: after 2 iterations \(the iteration limit\) before the task was completed\. Continue with the same allowance again\?/,
    );
    assert.equal(fx.server.requests.length, 3);
  });

  test('--max-auto-approvals asks once after that many calls in a row were approved without asking', async () => {
    const echo = (word: string) => ({
      text: `<execute_command>\n<command>echo ${word}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`,
    });
    fx.server.enqueue(echo('one'), echo('two'), echo('three'), done);
    // stdin carries no answers: the one call asked is refused.
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--max-auto-approvals', '2', 'Echo'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(lastUserText(fx.server.requestAt(2)), /\btwo\b/);
    assert.doesNotMatch(lastUserText(fx.server.requestAt(3)), /^three$/m);
    assert.match(lastUserText(fx.server.requestAt(3)), /denied|rejected|did not approve/i);
    const bad = await runCli({ args: [...fx.cliArgs(), '--max-auto-approvals', 'many', 'x'] });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-auto-approvals must be a whole number \(0 or more\); got "many"/);
  });

  test('a bad --max-cost is a usage error', async () => {
    const run = await runCli({ args: [...fx.cliArgs(), '--max-cost', 'lots', 'x'] });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--max-cost must be a positive number of US dollars; got "lots"/);
  });
});
