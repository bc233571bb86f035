// --max-cost is one budget, shared live by the task, its sub-agents running in parallel and every
// task a new_task hands over to: the total passes the limit by at most about one request.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { conversationRouter } from '../../helpers/conversation-router.js';

// $1 per million tokens: each request of 100,000 input and 1,000 output tokens costs $0.101.
const priced = ['--input-price', '1', '--output-price', '1', '--context-window', '1000000'];
const REQUEST_COST = 0.101;
const usage = { input: 100_000, output: 1_000 };
const list = { text: '<list_files>\n<path>.</path>\n</list_files>', usage };
const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`, usage });

interface Summary {
  success: boolean;
  taskId: string;
  metadata: { cost: number | null };
}

/** What the parent's log says of its sub-agents (the use_subagents result's details). */
function subagentsOf(storage: string, taskId: string): { status: string; requests: number; error?: string }[] {
  const events = readFileSync(join(storage, 'tasks', taskId, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  return events.find((event) => event.type === 'tool_result' && event.tool === 'use_subagents')?.details?.subagents ?? [];
}

describe('smith CLI: one cost budget for parallel sub-agents', () => {
  const fx = useAgentFixture();

  test('four sub-agents started together stop once the shared budget is spent; the total passes the limit by less than one request', async () => {
    const questions = ['Question A', 'Question B', 'Question C', 'Question D'];
    const router = conversationRouter({
      'Research it all': [
        { text: `<use_subagents>\n<prompts>${JSON.stringify(questions.map((q) => `${q}: look around`))}</prompts>\n</use_subagents>`, usage },
        done('All done.'),
      ],
      ...Object.fromEntries(questions.map((q) => [q, [list, done(`${q} answered.`)]])),
    });
    fx.server.enqueue(...router.replies());
    const run = await runCli({
      args: [...fx.cliArgs(), ...priced, '--yes', '--max-subagents', '4', '--max-cost', '0.25', '--output', 'json', 'Research it all'],
      stdin: '',
    });
    assert.equal(run.code, 1, run.stderr);
    const summary = JSON.parse(run.stdout) as Summary;
    // The parent's request ($0.101) leaves room for the requests of two sub-agents in flight
    // ($0.101 + 2 × $0.101 ≥ $0.25): nothing else starts anywhere, not even a sub-agent's second request.
    assert.equal(fx.server.requests.length, 3);
    assert.ok(summary.metadata.cost !== null && Math.abs(summary.metadata.cost - 3 * REQUEST_COST) < 1e-9, `cost was ${summary.metadata.cost}`);
    assert.ok(summary.metadata.cost! <= 0.25 + REQUEST_COST);
    const children = subagentsOf(fx.storage, summary.taskId);
    assert.equal(children.length, 4);
    assert.deepEqual(children.map((child) => child.requests).sort(), [0, 0, 1, 1]);
    for (const child of children) {
      assert.equal(child.status, 'failed');
      assert.match(child.error ?? '', /the cost limit of \$0\.25/);
    }
    assert.equal(summary.success, false);
    assert.match(run.stderr, /Stopped at \$0\.3030, over the cost limit of \$0\.25, before the task was completed\./);
  });
});

describe('smith CLI: one cost budget for a new_task chain', () => {
  const fx = useAgentFixture();

  test('a model that keeps handing over with new_task is stopped by --max-cost across the chain', async () => {
    fx.server.enqueue(...Array.from({ length: 6 }, (_, i) => ({ text: `<new_task>\n<context>step ${i}</context>\n</new_task>`, usage })));
    const run = await runCli({ args: [...fx.cliArgs(), ...priced, '--yes', '--max-cost', '0.25', '--output', 'json', 'Keep going'], stdin: '' });
    assert.equal(run.code, 1, run.stderr);
    // Each task of the chain spends from the same $0.25: the third request leaves $0.303 spent.
    assert.equal(fx.server.requests.length, 3);
    const summary = JSON.parse(run.stdout) as Summary & { taskIds: string[] };
    assert.ok(summary.metadata.cost !== null && Math.abs(summary.metadata.cost - 3 * REQUEST_COST) < 1e-9, `cost was ${summary.metadata.cost}`);
    assert.equal(summary.taskIds.length, 4);
    assert.match(run.stderr, /Stopped at \$0\.3030, over the cost limit of \$0\.25/);
  });
});

describe('smith CLI: the cost limit at the top', () => {
  const fx = useAgentFixture();

  test('asked at the limit, "Continue" gives another allowance of the same size', async () => {
    fx.server.enqueue(list, list, done('Done.'));
    const run = await runCli({ args: [...fx.cliArgs(), ...priced, '--yes', '--max-cost', '0.15', 'Look around'], answers: ['Continue'] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /The task reached a limit: at \$0\.2020, over the cost limit of \$0\.15, before the task was completed\. Continue with the same allowance again\?/,
    );
    assert.equal(fx.server.requests.length, 3);
  });

  test('--max-cost with a model whose prices are unknown is a usage error, before any request', async () => {
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--max-cost', '1', 'Look around'], stdin: '' });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--max-cost needs the model's prices, and the prices of openai-compatible\/scripted-model are unknown/);
    assert.match(run.stderr, /--input-price and --output-price/);
    assert.equal(fx.server.requests.length, 0);
  });

  test('--max-cost with only one of the two prices is refused too', async () => {
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--input-price', '1', '--max-cost', '1', 'Look around'], stdin: '' });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /the prices of openai-compatible\/scripted-model are unknown/);
  });
});
