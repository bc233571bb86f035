// The loop's limits, in-process against a scripted model: the request limit, the cost budget, and
// the run of the model's consecutive mistakes. Each stops the run before the request past it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NO_TOOL_REMINDER } from '../../../src/core/task/api-projection.js';
import { Task } from '../../../src/core/task/task.js';
import { TotalCostLimit } from '../../../src/core/log/total-cost-limit.js';
import { PRICED_MODEL, useInMemoryTask } from '../../helpers/in-memory-task.js';
import { completeTurn, toolTurn } from '../../helpers/scripted-provider.js';

const READ_A = toolTurn('read_file', { path: 'a.txt' });

describe('loop limits (in-process)', () => {
  const fixture = useInMemoryTask();

  test('the request limit stops the run before the request past it; no one to ask means stop', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.provider.enqueue(READ_A, READ_A, READ_A);
    const task = Task.create(fixture.options({ maxIterations: 2 }), 'Read a.txt forever');
    const outcome = await task.run();

    assert.deepEqual(outcome, { status: 'failed', error: 'Stopped after 2 iterations (the iteration limit) before the task was completed.' });
    assert.equal(fixture.provider.requests.length, 2);
    assert.equal(fixture.questions.length, 1, 'the user is asked whether to go on');
    assert.match(fixture.questions[0]!.question, /^The task reached a limit: after 2 iterations/);
    assert.deepEqual(fixture.questions[0]!.options, ['Continue', 'Stop']);
    assert.equal(task.log.events.at(-1)?.type, 'error');
  });

  test('"Continue" at the request limit gives another allowance of the same size', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.provider.enqueue(READ_A, READ_A, READ_A, READ_A, READ_A);
    fixture.questionAnswers.push('Continue', 'Stop');
    const task = Task.create(fixture.options({ maxIterations: 2 }), 'Read a.txt forever');
    const outcome = await task.run();

    assert.equal(outcome.status, 'failed');
    assert.equal(fixture.provider.requests.length, 4);
    assert.deepEqual(
      fixture.questions.map((q) => q.answer),
      ['Continue', 'Stop'],
    );
  });

  test('a run that completes within the limit is not asked anything', async () => {
    fixture.provider.enqueue(completeTurn());
    const outcome = await Task.create(fixture.options({ maxIterations: 1 }), 'Finish').run();
    assert.deepEqual(outcome, { status: 'completed', result: 'Done.' });
    assert.deepEqual(fixture.questions, []);
  });

  test('the cost budget stops the run once the responses cost it; each response logs its usage and cost', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    // 6,000 input tokens at $1 per million: $0.006 a response.
    const usage = { inputTokens: 6_000, outputTokens: 0 };
    fixture.provider.enqueue(toolTurn('read_file', { path: 'a.txt' }, usage), toolTurn('read_file', { path: 'a.txt' }, usage), completeTurn('Done.', usage));
    const task = Task.create(fixture.options({ maxCost: 0.01, modelInfo: () => PRICED_MODEL }), 'Read a.txt');
    const outcome = await task.run();

    assert.equal(outcome.status, 'failed');
    assert.match(outcome.status === 'failed' ? outcome.error : '', /^Stopped at \$0\.0120, over the cost limit of \$0\.01, before the task was completed\.$/);
    assert.equal(fixture.provider.requests.length, 2, 'no request after the budget was spent');
    const responses = task.log.events.filter((e) => e.type === 'model_response');
    assert.deepEqual(
      responses.map((e) => (e.type === 'model_response' ? [e.usage, e.cost] : [])),
      [
        [usage, 0.006],
        [usage, 0.006],
      ],
    );
    assert.equal(fixture.questions.length, 1);
  });

  test('"Continue" at the cost limit gives another budget of the same size', async () => {
    const usage = { inputTokens: 6_000, outputTokens: 0 };
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.provider.enqueue(toolTurn('read_file', { path: 'a.txt' }, usage), toolTurn('read_file', { path: 'a.txt' }, usage), completeTurn('Done.', usage));
    fixture.questionAnswers.push('Continue');
    const outcome = await Task.create(fixture.options({ maxCost: 0.01, modelInfo: () => PRICED_MODEL }), 'Read a.txt').run();
    assert.equal(outcome.status, 'completed');
    assert.equal(fixture.provider.requests.length, 3);
    assert.deepEqual(
      fixture.questions.map((q) => q.answer),
      ['Continue'],
    );
  });

  test('the total limit shared by tasks running at once stops each before its next request once their sum reaches it, and asks', async () => {
    const usage = { inputTokens: 6_000, outputTokens: 0 };
    fixture.ws.write('a.txt', 'alpha\n');
    const pool = new TotalCostLimit(() => 0.01);
    const shareA = pool.join();
    const shareB = pool.join();
    // A: $0.006 a response, under the total after its first, over it after its second.
    fixture.provider.enqueue(toolTurn('read_file', { path: 'a.txt' }, usage), completeTurn('A done.', usage));
    const a = await Task.create(fixture.options({ sharedCosts: shareA, modelInfo: () => PRICED_MODEL }), 'Task A').run();
    assert.equal(a.status, 'completed');
    assert.equal(fixture.questions.length, 0);
    // B, with no cost of its own yet, stops before its first request: the sum is A's $0.012.
    fixture.questionAnswers.push('Stop');
    const b = await Task.create(fixture.options({ sharedCosts: shareB, modelInfo: () => PRICED_MODEL }), 'Task B').run();
    assert.deepEqual(b, {
      status: 'failed',
      error: 'Stopped at $0.0120 spent by the tasks running at once, over their total cost limit of $0.01, before the task was completed.',
    });
    assert.equal(fixture.provider.requests.length, 2, 'B made no request');
    assert.match(fixture.questions[0]!.question, /total cost limit of \$0\.01/);
    // "Continue" gives all of them one more allowance.
    fixture.questionAnswers.push('Continue');
    fixture.provider.enqueue(completeTurn('B done.', usage));
    const again = await Task.create(fixture.options({ sharedCosts: shareB, modelInfo: () => PRICED_MODEL }), 'Task B again').run();
    assert.equal(again.status, 'completed');
    assert.equal(shareA.currentLimit, 0.02);
    // A is closed: its cost leaves the sum, and B's next task starts without asking.
    shareA.leave();
    fixture.provider.enqueue(completeTurn('B done.', usage));
    const questions = fixture.questions.length;
    assert.equal((await Task.create(fixture.options({ sharedCosts: shareB, modelInfo: () => PRICED_MODEL }), 'Task B once more').run()).status, 'completed');
    assert.equal(fixture.questions.length, questions);
  });

  test('three responses in a row without a tool stop the run; each is answered with a reminder', async () => {
    fixture.provider.enqueue({ text: 'Let me think.' }, { text: 'Still thinking.' }, { text: 'Hmm.' }, completeTurn());
    const task = Task.create(fixture.options(), 'Do it');
    const outcome = await task.run();

    assert.equal(outcome.status, 'failed');
    assert.match(outcome.status === 'failed' ? outcome.error : '', /^Stopped after 3 consecutive mistakes by the model/);
    assert.equal(fixture.provider.requests.length, 3);
    assert.ok(fixture.provider.textOf(1).includes(NO_TOOL_REMINDER), fixture.provider.textOf(1));
    assert.equal(task.log.events.filter((e) => e.type === 'no_tool_used').length, 3);
  });

  test('an unknown tool, a call missing a parameter and a cut-off call are mistakes too', async () => {
    fixture.provider.enqueue(
      { text: '<delete_everything>\n</delete_everything>' },
      { text: '<read_file>\n</read_file>' },
      { text: '<read_file>\n<path>a.t' },
      completeTurn(),
    );
    const task = Task.create(fixture.options(), 'Do it');
    const outcome = await task.run();

    assert.equal(outcome.status, 'failed');
    assert.match(outcome.status === 'failed' ? outcome.error : '', /3 consecutive mistakes/);
    const errors = task.log.events.filter((e) => e.type === 'tool_error');
    assert.deepEqual(
      errors.map((e) => (e.type === 'tool_error' ? [e.tool, e.mistake] : [])),
      [
        ['delete_everything', true],
        ['read_file', true],
        ['read_file', true],
      ],
    );
    assert.match(fixture.provider.textOf(1), /"delete_everything" is not a tool/);
  });

  test('a call that runs starts the count of mistakes again', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.provider.enqueue({ text: 'One.' }, { text: 'Two.' }, READ_A, { text: 'Three.' }, { text: 'Four.' }, completeTurn());
    const outcome = await Task.create(fixture.options(), 'Do it').run();
    assert.deepEqual(outcome, { status: 'completed', result: 'Done.' });
    assert.equal(fixture.provider.requests.length, 6);
  });

  test('maxConsecutiveMistakes sets how many mistakes stop the run', async () => {
    fixture.provider.enqueue({ text: 'No tool.' }, completeTurn());
    const outcome = await Task.create(fixture.options({ maxConsecutiveMistakes: 1 }), 'Do it').run();
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.status === 'failed' ? outcome.error : '', /^Stopped after 1 consecutive mistakes/);
    assert.equal(fixture.provider.requests.length, 1);
  });

  test("the user's message gives the model a fresh allowance of mistakes and requests", async () => {
    let task: Task | undefined;
    // One mistake, then the user speaks: the next mistake is the first of a new run, not the second.
    fixture.provider.enqueue({ text: 'No tool.', during: () => task!.queueUserMessage('Use a tool, please.') }, { text: 'No tool again.' }, completeTurn());
    task = Task.create(fixture.options({ maxConsecutiveMistakes: 2, maxIterations: 2 }), 'Do it');
    assert.deepEqual(await task.run(), { status: 'completed', result: 'Done.' });
    assert.equal(fixture.provider.requests.length, 3);
    assert.deepEqual(fixture.questions, [], 'the request limit was reached');
  });
});
