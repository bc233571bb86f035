// The CLI with a model that repeats itself: told after --max-repeats identical calls, then, with
// nobody to ask, stopped with a clear message and exit code 1.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const readA = { text: '<read_file>\n<path>a.txt</path>\n</read_file>' };
const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe('smith CLI: a model repeating the same call', () => {
  const fx = useAgentFixture();

  test('--max-repeats 2: told after two identical reads, stopped at the third when no one can answer', async () => {
    fx.ws.write('a.txt', 'alpha');
    fx.server.enqueue(readA, readA, readA, done);
    const run = await runCli({ args: [...fx.cliArgs(), '--max-repeats', '2', 'Read a.txt'], stdin: '' });
    assert.equal(run.code, 1, run.stderr);
    assert.match(lastUserText(fx.server.requestAt(2)), /You have made the same read_file call with the same parameters 2 times in a row/);
    assert.match(run.stderr, /! The model made the same read_file call 2 times in a row; told it to change course\./);
    assert.match(run.stderr, /\(a question was asked; no input is left to answer it\)/, 'whether to let it go on was asked');
    assert.match(run.stderr, /Stopped: the model made the same read_file call 3 times in a row and did not change course when told/);
    assert.equal(fx.server.requests.length, 3, 'no request after the stop');
  });

  test('--max-repeats 0 turns it off; a bad value is a usage error', async () => {
    fx.ws.write('a.txt', 'alpha');
    fx.server.enqueue(readA, readA, readA, readA, done);
    const off = await runCli({ args: [...fx.cliArgs(), '--max-repeats', '0', 'Read a.txt'], stdin: '' });
    assert.equal(off.code, 0, off.stderr);
    const bad = await runCli({ args: [...fx.cliArgs(), '--max-repeats', 'two', 'x'] });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-repeats must be a whole number, 0 or more; got "two"/);
  });
});
