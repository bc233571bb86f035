// --input stream-json: a program answers approvals and questions and sends messages as JSON lines,
// reading what to answer from --output stream-json.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StreamJsonLine } from '../../../src/cli/stream-json.js';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli, spawnCli } from '../../helpers/cli-runner.js';

describe('smith CLI: --input stream-json', () => {
  const fx = useAgentFixture();

  test('approvals, answers and messages as JSON lines; a bad line is reported and skipped', async () => {
    fx.server.enqueue(
      { text: '<write_to_file>\n<path>notes.md</path>\n<content>\nhello\n</content>\n</write_to_file>' },
      { text: '<ask_followup_question>\n<question>Which colour?</question>\n</ask_followup_question>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const { child, done } = spawnCli({ args: [...fx.cliArgs(), '--input', 'stream-json', '--output', 'stream-json', 'Write the notes'], answers: [] });
    const send = (line: unknown) => child.stdin!.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
    send('not json');
    send({ type: 'message', text: '', extra: 1 });
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const line = JSON.parse(buffer.slice(0, end)) as StreamJsonLine;
        buffer = buffer.slice(end + 1);
        if (line.type !== 'event') continue;
        // Sent while the task waits, so the message is queued for the next request whatever the
        // machine's speed (sent at start, a slow start could read it before the first request).
        if (line.event.type === 'approval_asked') {
          send({ type: 'message', text: 'Use British spelling.' });
          send({ type: 'approval', callId: line.event.callId, approved: true, feedback: 'looks fine' });
        }
        if (line.event.type === 'tool_requested' && line.event.tool === 'ask_followup_question') send({ type: 'answer', text: 'Blue' });
      }
    });
    const run = await done;
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /smith: input line 1 ignored: Unexpected token/);
    assert.ok(
      run.stderr.includes('smith: input line 2 ignored: text: Too small: expected string to have >=1 characters; line: Unrecognized key: "extra"'),
      run.stderr,
    );
    assert.equal(fx.ws.read('notes.md'), 'hello\n');
    assert.match(lastUserText(fx.server.requestAt(1)), /The user approved with feedback:\n<feedback>\nlooks fine\n<\/feedback>/);
    assert.match(lastUserText(fx.server.requestAt(1)), /<user_message>\nUse British spelling\.\n<\/user_message>/);
    assert.match(lastUserText(fx.server.requestAt(2)), /Blue/);
  });

  test('a stream that ends before an approval rejects it; a missing task is a usage error', async () => {
    fx.server.enqueue(
      { text: '<write_to_file>\n<path>notes.md</path>\n<content>\nhello\n</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>Gave up.</result>\n</attempt_completion>' },
    );
    const ended = await runCli({ args: [...fx.cliArgs(), '--input', 'stream-json', 'Write the notes'], stdin: '' });
    assert.equal(ended.code, 0, ended.stderr);
    assert.match(lastUserText(fx.server.requestAt(1)), /the input ended before the approval was given/);
    const noTask = await runCli({ args: [...fx.cliArgs(), '--input', 'stream-json'], stdin: '' });
    assert.equal(noTask.code, 2);
    assert.match(noTask.stderr, /--input stream-json needs the task as an argument/);
  });
});
