// `smith "/review src/queue.ts"` and an --input stream-json message "/name args" expand a command
// file from any of the documented folders, as the REPL (and Claude Code's -p) does.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli, spawnCli } from '../../helpers/cli-runner.js';

const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe('smith CLI: a slash command as the task or a message', () => {
  const fx = useAgentFixture();

  for (const folder of ['.smith/commands', '.claude/commands', '.clinerules/workflows', '<storage>/commands']) {
    test(`the positional task "/review src/queue.ts" runs the command file in ${folder}`, async () => {
      const text = '---\ndescription: Review a file\n---\nReview $ARGUMENTS for races, carefully.';
      if (folder === '<storage>/commands') {
        mkdirSync(join(fx.storage, 'commands'), { recursive: true });
        writeFileSync(join(fx.storage, 'commands', 'review.md'), text);
      } else {
        fx.ws.write(`${folder}/review.md`, text);
      }
      fx.server.enqueue(done);
      const run = await runCli({ args: [...fx.cliArgs(), '--yes', '/review src/queue.ts'], stdin: '' });
      assert.equal(run.code, 0, run.stderr);
      const sent = lastUserText(fx.server.requestAt(0));
      assert.match(sent, /Review src\/queue\.ts for races, carefully\./);
      assert.doesNotMatch(sent, /\/review src/);
    });
  }

  test('an unknown /name (or a path) is sent as written; a command file withheld by a Read rule is refused', async () => {
    fx.server.enqueue(done);
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '/tmp is full, clean it'], stdin: '' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(lastUserText(fx.server.requestAt(0)), /\/tmp is full, clean it/);
    fx.ws.write('.smith/commands/secret.md', 'Secret instructions');
    const refused = await runCli({ args: [...fx.cliArgs(), '--yes', '--deny', 'Read(.smith/**)', '/secret'], stdin: '' });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /\/secret was not sent: its file .* is withheld/);
  });

  test('an --input stream-json message "/name args" is expanded before it reaches the model', async () => {
    fx.ws.write('.claude/commands/style.md', 'Write in $ARGUMENTS spelling.');
    fx.server.enqueue({ text: '<write_to_file>\n<path>notes.md</path>\n<content>\nhello\n</content>\n</write_to_file>' }, done);
    const { child, done: finished } = spawnCli({ args: [...fx.cliArgs(), '--input', 'stream-json', '--output', 'stream-json', 'Write notes'], answers: [] });
    const send = (line: object) => child.stdin!.write(`${JSON.stringify(line)}\n`);
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
        const line = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (line.type === 'event' && line.event.type === 'approval_asked') {
          send({ type: 'message', text: '/style British' });
          send({ type: 'approval', callId: line.event.callId, approved: true });
        }
      }
    });
    const run = await finished;
    assert.equal(run.code, 0, run.stderr);
    const second = lastUserText(fx.server.requestAt(1));
    assert.match(second, /<user_message>\nWrite in British spelling\.\n<\/user_message>/);
  });
});
