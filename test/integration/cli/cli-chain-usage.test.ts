import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { RecordedRequest, ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const complete = (result: string, usage = { input: 100, output: 10 }): ScriptedReply => ({
  text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`,
  usage,
});
const newTask = (context: string, usage = { input: 100, output: 10 }): ScriptedReply => ({
  text: `<new_task>\n<context>${context}</context>\n</new_task>`,
  usage,
});
const isSummaryRequest = (request: RecordedRequest) => /You summarise a coding session/.test(systemPromptOf(request));

describe('the iteration limit covers a whole new_task chain', () => {
  // A server of its own: the replies this test leaves queued must not reach other tests.
  const fx = useAgentFixture();

  test('a model that keeps handing over with new_task is stopped by --max-iterations (exit 1)', async () => {
    fx.server.enqueue(...Array.from({ length: 12 }, (_, i) => newTask(`step ${i}`)));
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--max-iterations', '3', '--output', 'json', 'Keep going'] });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(fx.server.requests.length, 3);
    const summary = JSON.parse(run.stdout);
    assert.equal(summary.success, false);
    assert.equal(summary.metadata.totalIterations, 3);
    assert.match(summary.steps.at(-1).error, /Stopped after 3 iterations/);
    // The last hand-over is kept as a task of its own, so it can be resumed with a higher limit.
    assert.equal(summary.taskIds.length, 4);
    assert.equal(summary.taskId, summary.taskIds.at(-1));
    assert.equal(taskEvents(fx.storage).length, 4);
  });
});

describe('totals cover a whole new_task chain', () => {
  const fx = useAgentFixture();

  test('the JSON summary counts the steps, tokens and cost of every task of the chain', async () => {
    fx.ws.write('a.txt', 'alpha\n');
    fx.server.enqueue(
      { text: '<read_file>\n<path>a.txt</path>\n</read_file>', usage: { input: 1_000, output: 10 } },
      newTask('Read a.txt; now finish.', { input: 2_000, output: 20 }),
      complete('finished', { input: 300, output: 30 }),
    );
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--input-price', '1', '--output-price', '2', '--output', 'json', 'Read and finish'] });
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.equal(summary.result, 'finished');
    assert.equal(summary.taskIds.length, 2);
    assert.equal(summary.taskId, summary.taskIds[1]);
    assert.equal(summary.metadata.totalIterations, 3);
    assert.deepEqual(summary.metadata.tokensUsed, { input: 3_300, output: 60, cacheRead: 0, cacheWrite: 0 });
    // $1 per million input tokens, $2 per million output tokens.
    assert.ok(Math.abs(summary.metadata.cost - (3_300 + 60 * 2) / 1e6) < 1e-12, `cost was ${summary.metadata.cost}`);
    assert.deepEqual(summary.metadata.toolsUsed, ['read_file', 'new_task', 'attempt_completion']);
    const read = summary.steps.find((step: { tool?: string }) => step.tool === 'read_file');
    assert.match(read.output, /alpha/);
  });

  test('the human summary line counts the whole chain too', async () => {
    fx.server.enqueue(newTask('Go on.', { input: 1_000, output: 10 }), complete('done', { input: 2_000, output: 20 }));
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--input-price', '1', '--output-price', '2', 'Hand over'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Tokens: 3,000 in · 30 out · \$0\.00306\n/);
  });
});

describe('cost is never under-reported', () => {
  const fx = useAgentFixture();

  test('with only --context-window the cost is unknown (null), not zero', async () => {
    fx.server.enqueue(complete('a'), complete('b'));
    const json = await runCli({ args: [...fx.cliArgs(), '--yes', '--context-window', '100000', '--output', 'json', 'x'] });
    assert.equal(json.code, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout).metadata.cost, null);
    const human = await runCli({ args: [...fx.cliArgs(), '--yes', '--context-window', '100000', 'x'] });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stderr, /Tokens: 100 in · 10 out · cost unknown/);
  });

  test('a summary request made to condense the history counts in tokens and cost, and its usage is logged', async () => {
    // About 7,500 estimated tokens: with a 10,000-token window the request after reading it must be condensed.
    fx.ws.write('big.txt', 'lorem ipsum dolor sit amet '.repeat(1_200));
    const script: ScriptedReply[] = [
      { text: '<read_file>\n<path>big.txt</path>\n</read_file>', usage: { input: 1_000, output: 10 } },
      complete('condensed and done', { input: 500, output: 5 }),
    ];
    let summaries = 0;
    const answer = (request: RecordedRequest): ScriptedReply => {
      if (isSummaryRequest(request)) {
        summaries++;
        return { text: 'SUMMARY: big.txt was read.', usage: { input: 2_000, output: 50 } };
      }
      return script.shift()!;
    };
    fx.server.enqueue(answer, answer, answer, answer);
    const args = [...fx.cliArgs(), '--yes', '--context-window', '10000', '--input-price', '1', '--output-price', '2', '--output', 'json', 'Read big.txt'];
    const run = await runCli({ args });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(summaries, 1, 'the history was not condensed');
    const summary = JSON.parse(run.stdout);
    assert.deepEqual(summary.metadata.tokensUsed, { input: 3_500, output: 65, cacheRead: 0, cacheWrite: 0 });
    assert.ok(Math.abs(summary.metadata.cost - (3_500 + 65 * 2) / 1e6) < 1e-12, `cost was ${summary.metadata.cost}`);
    const [events] = taskEvents(fx.storage);
    const condensed = events!.find((event) => event.type === 'history_condensed') as { usage?: unknown; cost?: number } | undefined;
    assert.deepEqual(condensed?.usage, { inputTokens: 2_000, outputTokens: 50 });
    assert.ok(Math.abs(condensed!.cost! - (2_000 + 100) / 1e6) < 1e-12);
  });
});

function taskEvents(storage: string): Array<Array<{ type: string }>> {
  const root = join(storage, 'tasks');
  return readdirSync(root).map((id) =>
    readFileSync(join(root, id, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  );
}
