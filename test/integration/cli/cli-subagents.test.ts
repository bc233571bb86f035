// use_subagents in the CLI: the sub-agents' progress as indented lines, their tokens in the summary.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { conversationRouter } from '../../helpers/conversation-router.js';

const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`, usage: { input: 500, output: 10 } });

describe('smith CLI: sub-agents', () => {
  const fx = useAgentFixture();

  test('progress lines per sub-agent, and their tokens counted in the run', async () => {
    fx.ws.write('notes.md', 'The release is on Friday.\n');
    const router = conversationRouter({
      'When is the release': [
        {
          text: '<use_subagents>\n<prompts>["Question one: read notes.md", "Question two: list the files"]</prompts>\n</use_subagents>',
          usage: { input: 1_000, output: 40 },
        },
        done('Friday.'),
      ],
      'Question one': [{ text: '<read_file>\n<path>notes.md</path>\n</read_file>', usage: { input: 500, output: 10 } }, done('Friday, per notes.md.')],
      'Question two': [{ text: '<list_files>\n<path>.</path>\n</list_files>', usage: { input: 500, output: 10 } }, done('Only notes.md.')],
    });
    fx.server.enqueue(...router.replies());
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--max-subagents', '2', '--output', 'json', 'When is the release?'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /▸ use_subagents 2 questions: Question one: read notes\.md \| Question two: list the files/);
    assert.match(run.stderr, /^ {2}\[1\] started: Question one: read notes\.md$/m);
    assert.match(run.stderr, /^ {2}\[1\] read_file notes\.md$/m);
    assert.match(run.stderr, /^ {2}\[2\] list_files \.$/m);
    assert.match(run.stderr, /^ {2}\[2\] reported$/m);
    const summary = JSON.parse(run.stdout) as { result: string; metadata: { tokensUsed: { input: number; output: number } } };
    assert.equal(summary.result, 'Friday.');
    assert.deepEqual([summary.metadata.tokensUsed.input, summary.metadata.tokensUsed.output], [1_500 + 2_000, 50 + 40]);
  });
});
