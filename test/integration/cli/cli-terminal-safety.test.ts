// What the model writes, and what its commands print, cannot drive the terminal: escape and
// control sequences are removed from the CLI's output, the text around them is kept.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from '../../helpers/cli-runner.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';

const ESC = '\x1b';
const HOSTILE = [
  `${ESC}]52;c;ZWNobyBwd25lZA==\x07`, // clipboard write
  `${ESC}]0;owned title${ESC}\\`, // window title, ST-terminated
  `${ESC}[2J${ESC}[H`, // clear screen, cursor home
  `${ESC}[5A${ESC}[10;20H`, // cursor moves
  '\x07', // bell
  '\x9b2J', // C1 CSI
  '\x9d0;c1 title\x9c', // C1 OSC
  `${ESC}c`, // full reset
  `${ESC}P1$qm${ESC}\\`, // DCS
];

/** Any escape, C0 control (other than tab and newline) or C1 control left in the output. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('smith CLI output is free of escape sequences from the model and tools', () => {
  const fx = useAgentFixture();

  test("the streamed answer, a command's output and the result keep their text without the sequences", async () => {
    fx.ws.write('evil.txt', `file says hi${HOSTILE.join('')} and bye\n`);
    const answer = `Hello${HOSTILE.join('')} world.`;
    fx.server.enqueue(
      // Small chunks split the sequences across deltas.
      { text: `${answer}\n<execute_command>\n<command>cat evil.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>`, chunkSize: 4 },
      { text: `<attempt_completion>\n<result>All${HOSTILE.join('')} done.</result>\n<command>echo ${ESC}]52;c;eA==\x07ok</command>\n</attempt_completion>` },
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--verbose', 'Greet'] });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, CONTROL, JSON.stringify(run.stdout));
    assert.doesNotMatch(run.stderr, CONTROL, JSON.stringify(run.stderr));
    assert.equal(run.stdout, 'All done.\n');
    assert.match(run.stderr, /Hello world\./);
    assert.match(run.stderr, /file says hi and bye/);
    assert.ok(!run.stderr.includes('ZWNobyBwd25lZA==') && !run.stderr.includes('owned title'), 'the payload of a sequence is shown as text');
  });

  test('--output json escapes control characters, so the JSON is safe on a terminal and keeps them for machines', async () => {
    fx.server.enqueue({ text: `<attempt_completion>\n<result>ok${ESC}[2J</result>\n</attempt_completion>` });
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Go'] });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, CONTROL);
    assert.equal(JSON.parse(run.stdout).result, `ok${ESC}[2J`);
  });
});
