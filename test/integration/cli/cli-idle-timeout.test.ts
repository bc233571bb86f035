import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const complete = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe('--idle-timeout and answers that are not a stream, through the CLI', () => {
  const fx = useAgentFixture();

  test('a request that gets no answer is abandoned after --idle-timeout and retried visibly', async () => {
    fx.server.enqueue({ fault: 'hang' }, { fault: 'stall' }, complete('ok'));
    const run = await runCli({ args: [...fx.cliArgs(), '--idle-timeout', '0.4', '--yes', 'Do it'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /No data from the OpenAI-compatible server for 0\.4 s before the response started \(the idle timeout\).*retrying in \d+ s \(attempt 1\/3\)/,
    );
    assert.match(
      run.stderr,
      /No data from the OpenAI-compatible server for 0\.4 s after the response started \(the idle timeout\).*retrying in \d+ s \(attempt 2\/3\)/,
    );
    assert.equal(fx.server.requests.length, 3);
    // The retries are facts of the task's log.
    const [taskId] = readdirSync(join(fx.storage, 'tasks'));
    const events = readFileSync(join(fx.storage, 'tasks', taskId!, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      events.filter((e) => e.type === 'request_retried').map((e) => e.attempt),
      [1, 2],
    );
  });

  test('an HTML page answered with 200 fails with an error naming the URL and content type', async () => {
    fx.server.enqueue({ fault: 'not-a-stream' });
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', 'Do it'] });
    assert.equal(run.code, 1);
    assert.ok(run.stderr.includes(`${fx.server.openAiBaseUrl}/chat/completions answered HTTP 200 with content type "text/html; charset=utf-8"`), run.stderr);
    assert.doesNotMatch(run.stderr, /mistake/i);
    assert.equal(fx.server.requests.length, 1);
  });

  test('a bad --idle-timeout is a usage error', async () => {
    for (const flag of [['--idle-timeout', 'soon'], ['--idle-timeout=-1'], ['--idle-timeout', '']]) {
      const run = await runCli({ args: [...fx.cliArgs(), ...flag, 'Do it'] });
      assert.equal(run.code, 2, `${flag.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /--idle-timeout must be a number of seconds/);
    }
    assert.equal(fx.server.requests.length, 0);
  });
});
