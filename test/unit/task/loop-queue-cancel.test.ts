// The message queue and cancelling, in-process against a scripted model: a message typed while the
// task works reaches the model after the running step's result; a steer cuts the answer off; a
// cancel ends the run at once with what happened kept in the log, and nothing half-done runs.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Task } from '../../../src/core/task/task.js';
import { useInMemoryTask } from '../../helpers/in-memory-task.js';
import { completeTurn, toolTurn } from '../../helpers/scripted-provider.js';

const WRITE_X = toolTurn('write_to_file', { path: 'x.txt', content: 'hello' });

describe('loop queue and cancel (in-process)', () => {
  const fixture = useInMemoryTask();

  test('a message queued while a step runs is logged after its result, just before the next request', async () => {
    fixture.provider.enqueue(WRITE_X, completeTurn());
    let task: Task | undefined;
    fixture.user.answers = [{ approved: true }];
    fixture.user.whileAsking = () => {
      task!.queueUserMessage('Also add a README');
      assert.deepEqual(task!.queuedMessages, ['Also add a README']);
      assert.equal(
        task!.log.events.some((e) => e.type === 'user_message'),
        false,
        'logged while the step runs',
      );
    };
    task = Task.create(fixture.options(), 'Write x.txt');
    assert.equal((await task.run()).status, 'completed');

    assert.deepEqual(task.queuedMessages, []);
    const types = task.log.events.map((e) => e.type);
    assert.ok(types.indexOf('tool_result') < types.indexOf('user_message'), types.join(' '));
    assert.ok(types.indexOf('user_message') < types.lastIndexOf('request_started'), types.join(' '));
    const next = fixture.provider.textOf(1);
    assert.ok(next.indexOf('Also add a README') > next.indexOf('x.txt'), next);
    assert.match(next, /<user_message>\nAlso add a README\n<\/user_message>/);
  });

  test('queued messages can be changed or removed until they are delivered', async () => {
    fixture.provider.enqueue(WRITE_X, completeTurn());
    let task: Task | undefined;
    fixture.user.answers = [{ approved: true }];
    fixture.user.whileAsking = () => {
      task!.queueUserMessage('first');
      task!.queueUserMessage('second');
      assert.equal(task!.updateQueued(0, 'first, changed'), true);
      assert.equal(task!.updateQueued(1), true);
      assert.equal(task!.updateQueued(5, 'nothing there'), false);
    };
    task = Task.create(fixture.options(), 'Write x.txt');
    assert.equal((await task.run()).status, 'completed');

    const delivered = task.log.events.flatMap((e) => (e.type === 'user_message' ? [e.text] : []));
    assert.deepEqual(delivered, ['first, changed']);
  });

  test('a message queued during the last response waits; the next run delivers it first', async () => {
    let task: Task | undefined;
    fixture.provider.enqueue({ ...completeTurn('One.'), during: () => task!.queueUserMessage('Go on') }, completeTurn('Two.'));
    task = Task.create(fixture.options(), 'Count');
    assert.deepEqual(await task.run(), { status: 'completed', result: 'One.' });
    assert.deepEqual(task.queuedMessages, ['Go on']);

    assert.deepEqual(await task.run(), { status: 'completed', result: 'Two.' });
    assert.match(fixture.provider.textOf(1), /<user_message>\nGo on\n<\/user_message>/);
  });

  test('a steer cuts the streaming answer off and the next request carries the message', async () => {
    let task: Task | undefined;
    fixture.provider.enqueue(
      { text: 'I will rewrite every file, starting with', chunkSize: 10, during: () => task!.steer('No, only the README'), stall: true },
      completeTurn(),
    );
    task = Task.create(fixture.options(), 'Tidy up');
    assert.deepEqual(await task.run(), { status: 'completed', result: 'Done.' });

    const cut = task.log.events.find((e) => e.type === 'response_interrupted');
    assert.ok(cut?.type === 'response_interrupted' && cut.byUser === true, JSON.stringify(cut));
    assert.equal(cut.partialText, 'I will rewrite every file, starting with');
    const next = fixture.provider.textOf(1);
    assert.match(next, /No, only the README/);
    assert.match(next, /I will rewrite every file, starting with/);
  });

  test('cancel while the model streams: aborted, the partial tool call never runs, the model is told later', async () => {
    let task: Task | undefined;
    fixture.provider.enqueue({ text: '<write_to_file>\n<path>x.txt</path>\n<content>partial', chunkSize: 8, during: () => task!.abort(), stall: true });
    task = Task.create(fixture.options(), 'Write x');
    assert.deepEqual(await task.run(), { status: 'aborted' });

    assert.equal(task.log.events.at(-1)?.type, 'task_aborted');
    assert.equal(
      task.log.events.some((e) => e.type === 'tool_requested'),
      false,
      'a cut-off call ran',
    );
    assert.deepEqual(fixture.user.asked, []);
    fixture.provider.enqueue(completeTurn());
    task.addUserMessage('Go on');
    assert.equal((await task.run()).status, 'completed');
    assert.match(fixture.provider.textOf(1), /The user interrupted your previous answer: it was cut off where it ends above/);
  });

  test('cancel while an approval is pending: aborted, the edit is not made, no further request', async () => {
    fixture.provider.enqueue(WRITE_X, completeTurn());
    let task: Task | undefined;
    fixture.user.whileAsking = () => task!.abort();
    task = Task.create(fixture.options(), 'Write x.txt');
    assert.deepEqual(await task.run(), { status: 'aborted' });

    assert.equal(existsSync(join(fixture.ws.root, 'x.txt')), false);
    assert.equal(fixture.provider.requests.length, 1);
    assert.equal(task.log.events.at(-1)?.type, 'task_aborted');
    assert.equal(fixture.provider.remaining, 1);
  });

  test('a cancelled task runs again from where it stopped', async () => {
    let task: Task | undefined;
    fixture.provider.enqueue({ text: 'Working', during: () => task!.abort(), stall: true }, completeTurn());
    task = Task.create(fixture.options(), 'Work');
    assert.deepEqual(await task.run(), { status: 'aborted' });
    assert.deepEqual(await task.run(), { status: 'completed', result: 'Done.' });
    assert.equal(fixture.provider.requests.length, 2);
  });
});
