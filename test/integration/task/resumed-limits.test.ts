// The loop's limits count from the log: a task stopped part way through a run of mistakes and
// resumed (a reload, a crash, a cancel) reaches the limit after the mistakes it has left, not after
// a fresh allowance; the iteration limit likewise counts the requests made before the resume.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { Task, type TaskOptions } from '../../../src/core/task/task.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { eventually } from '../../helpers/pid-liveness.js';

const NO_TOOL = { text: 'I think the answer is 42.' };
const MISSING_PARAM = { text: '<read_file>\n</read_file>' };
const READ = { text: '<list_files>\n<path>.</path>\n</list_files>' };

describe('loop limits across a resume', () => {
  const fixture = useTaskFixture();

  async function options(extra: Partial<TaskOptions> = {}): Promise<TaskOptions> {
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, new ToolHarness(fixture.ws.root).host, { maxIterations: 20 });
    return { ...environment.options, retry: { maxRetries: 0 }, maxConsecutiveMistakes: 3, ...extra };
  }

  /** Runs a task through `replies`, then cancels it while the next request hangs. */
  async function stopAfter(taskOptions: TaskOptions, replies: readonly object[]): Promise<string> {
    fixture.server.enqueue(...(replies as never[]), { fault: 'hang' });
    const task = Task.create(taskOptions, 'What is the answer?');
    const run = task.run();
    assert.ok(await eventually(() => fixture.server.requests.length === replies.length + 1), 'the hanging request was never made');
    task.abort();
    assert.equal((await run).status, 'aborted');
    return task.id;
  }

  test('two mistakes, then a resume: the third mistake stops the task', async () => {
    const taskOptions = await options();
    const taskId = await stopAfter(taskOptions, [NO_TOOL, MISSING_PARAM]);
    fixture.server.requests.length = 0;

    // Only what the task may ask for is queued: the server outlives each test.
    fixture.server.enqueue(NO_TOOL);
    const resumed = Task.resume(taskOptions, taskId);
    const outcome = await resumed.run();

    assert.equal(outcome.status, 'failed');
    assert.match(outcome.status === 'failed' ? outcome.error : '', /Stopped after 3 consecutive mistakes/);
    assert.equal(fixture.server.requests.length, 1, 'one mistake was left, not three');
  });

  test('a successful call between the mistakes starts the count again, also across a resume', async () => {
    const taskOptions = await options();
    const taskId = await stopAfter(taskOptions, [NO_TOOL, NO_TOOL, READ, NO_TOOL]);
    fixture.server.requests.length = 0;

    fixture.server.enqueue(NO_TOOL, NO_TOOL);
    const outcome = await Task.resume(taskOptions, taskId).run();

    assert.match(outcome.status === 'failed' ? outcome.error : '', /Stopped after 3 consecutive mistakes/);
    assert.equal(fixture.server.requests.length, 2);
  });

  test("the user's message gives the model a fresh allowance", async () => {
    const taskOptions = await options();
    const taskId = await stopAfter(taskOptions, [NO_TOOL, NO_TOOL]);
    fixture.server.requests.length = 0;

    fixture.server.enqueue(NO_TOOL, NO_TOOL, NO_TOOL);
    const resumed = Task.resume(taskOptions, taskId);
    resumed.addUserMessage('Use a tool, please.');
    const outcome = await resumed.run();

    assert.match(outcome.status === 'failed' ? outcome.error : '', /Stopped after 3 consecutive mistakes/);
    assert.equal(fixture.server.requests.length, 3);
  });

  test('the iteration limit counts the requests made before the resume', async () => {
    const taskOptions = await options({ maxIterations: 4 });
    const taskId = await stopAfter(taskOptions, [READ, READ]);
    fixture.server.requests.length = 0;

    fixture.server.enqueue(READ);
    const outcome = await Task.resume(taskOptions, taskId).run();

    assert.match(outcome.status === 'failed' ? outcome.error : '', /Stopped after 4 iterations/);
    // Three requests were made before the cancel (the third hung); one was left.
    assert.equal(fixture.server.requests.length, 1);
  });

  test('the cap on auto-approvals in a row asks after the cap, counting the approvals made before a resume', async () => {
    const harness = new ToolHarness(fixture.ws.root);
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host, { maxIterations: 20 });
    // The same call four times on purpose; the repeat check (a limit of its own) is off here.
    const taskOptions: TaskOptions = {
      ...environment.options,
      retry: { maxRetries: 0 },
      policy: { ...APPROVE_ALL_POLICY, maxConsecutive: 3 },
      maxRepeatedCalls: 0,
    };
    const taskId = await stopAfter(taskOptions, [READ, READ]);
    assert.equal(harness.asked.length, 0, 'two auto-approvals, within the cap');
    fixture.server.requests.length = 0;

    harness.answers.push({ approved: true });
    fixture.server.enqueue(READ, READ, { text: '<attempt_completion>\n<result>Listed.</result>\n</attempt_completion>' });
    const outcome = await Task.resume(taskOptions, taskId).run();
    assert.equal(outcome.status, 'completed');
    // The third read was still auto-approved (3 in a row); the fourth asked, and the count began again.
    assert.deepEqual(
      harness.asked.map((request) => request.tool),
      ['list_files'],
    );
    assert.equal(fixture.server.requests.length, 3);
  });
});
