import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCommandResult } from '../../../webview-ui/src/chat/command-result.js';
import { appendToDraft } from '../../../webview-ui/src/chat/draft-text.js';

// The texts below are the formats src/core/tools/execute-command.ts writes for the model.
describe('parseCommandResult', () => {
  test('an exit code and the output, without the labels', () => {
    assert.deepEqual(parseCommandResult('Exit code: 0\nOutput:\nline 1\nline 2'), { output: 'line 1\nline 2', exitCode: 0 });
    assert.deepEqual(parseCommandResult('Exit code: 127\nOutput:\nsh: nope: not found\n'), { output: 'sh: nope: not found\n', exitCode: 127 });
    assert.deepEqual(parseCommandResult('Exit code: 0\nOutput: (none)'), { output: '', exitCode: 0 });
  });

  test('notes on how stdout and stderr were read stay out of the output', () => {
    assert.deepEqual(parseCommandResult('Exit code: 2\nOutput (stdout and stderr merged in the order printed):\nout\nerr'), { output: 'out\nerr', exitCode: 2 });
    const cut = parseCommandResult('Exit code: 0\nOutput (stdout and stderr merged in the order printed; too long: the middle was cut, see the note where it was):\nhead\ntail');
    assert.equal(cut.output, 'head\ntail');
    assert.match(cut.note ?? '', /too long/);
  });

  test('a command ended by a signal has no code but the signal', () => {
    assert.deepEqual(parseCommandResult('Exit code: none (terminated by SIGTERM)\nOutput:\npartial'), { output: 'partial', signal: 'SIGTERM' });
  });

  test('output cut in the middle says so', () => {
    const result = parseCommandResult('Exit code: 1\nOutput (too long: the middle was cut, see the note where it was):\nhead\n[… 500 lines cut …]\ntail');
    assert.equal(result.exitCode, 1);
    assert.equal(result.output, 'head\n[… 500 lines cut …]\ntail');
    assert.match(result.note ?? '', /too long/);
  });

  test('still running and timed out: a note instead of a code', () => {
    const running = parseCommandResult(
      'Command is still running (id 3): it printed nothing new for 10 s. It keeps running in the background until the task ends. Do not start it again.\nOutput so far:\nListening on :3000',
    );
    assert.deepEqual({ output: running.output, exitCode: running.exitCode }, { output: 'Listening on :3000', exitCode: undefined });
    assert.match(running.note ?? '', /Still running in the background \(id 3\)/);
    const killed = parseCommandResult('The command did not finish within 5 s and was killed, together with every process it started.\nOutput before it was killed: (none)');
    assert.equal(killed.output, '');
    assert.match(killed.note ?? '', /Killed after 5 s/);
  });

  test('approval feedback appended for the model is left out when the card shows it', () => {
    const text = 'Exit code: 0\nOutput:\nok\n\nThe user approved with feedback:\n<feedback>\ncareful\nplease\n</feedback>';
    assert.deepEqual(parseCommandResult(text, 'careful\nplease'), { output: 'ok', exitCode: 0 });
    // Without feedback on the call, output that merely looks like it stays.
    assert.equal(parseCommandResult(text).output, 'ok\n\nThe user approved with feedback:\n<feedback>\ncareful\nplease\n</feedback>');
  });

  test("the note about .smithignore'd paths the command named becomes the card's note", () => {
    const note = "The command names .env, which .smithignore excludes from Smith's tools.";
    const text = `Exit code: 0\nOutput:\nSECRET=1\n\nNote: ${note} Do not work with those paths unless the user asks.\n\nThe user approved with feedback:\n<feedback>\nok\n</feedback>`;
    assert.deepEqual(parseCommandResult(text, 'ok'), { output: 'SECRET=1', exitCode: 0, note });
  });

  test('anything else comes back whole, without a code', () => {
    for (const text of ['all 3 passed', 'Exit code: 0', 'Exit code: zero\nOutput:\nx', 'Exit code: 0\nResult:\nx', '']) {
      assert.deepEqual(parseCommandResult(text), { output: text });
    }
  });
});

describe('appendToDraft', () => {
  const block = 'a.ts (line 1):\n```ts\nx\n```';
  test('an empty draft becomes the block and a new line for what comes next', () => {
    assert.equal(appendToDraft('', block), `${block}\n`);
    assert.equal(appendToDraft('  \n', `${block}\n\n`), `${block}\n`);
  });
  test('after words, the block starts after a blank line', () => {
    assert.equal(appendToDraft('Explain this:', block), `Explain this:\n\n${block}\n`);
    assert.equal(appendToDraft('Explain this:\n\n\n', block), `Explain this:\n\n${block}\n`);
    assert.equal(appendToDraft(`${block}\n`, block), `${block}\n\n${block}\n`);
  });
  test('nothing to insert leaves the draft alone', () => {
    assert.equal(appendToDraft('draft', ''), 'draft');
  });
});
