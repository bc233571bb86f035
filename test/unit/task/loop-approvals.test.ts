// Approvals in the loop, in-process against a scripted model: what is asked, what an approval, a
// rejection and feedback do to the workspace and to what the model reads next, and the one-tool rule.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { APPROVE_ALL_POLICY, DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import { Task } from '../../../src/core/task/task.js';
import { askedCalls, useInMemoryTask } from '../../helpers/in-memory-task.js';
import { completeTurn, toolTurn } from '../../helpers/scripted-provider.js';

const WRITE_X = toolTurn('write_to_file', { path: 'x.txt', content: 'hello' });

describe('loop approvals (in-process)', () => {
  const fixture = useInMemoryTask();

  test('an edit asks first; approved, it is written and the answer is logged', async () => {
    fixture.provider.enqueue(WRITE_X, completeTurn());
    fixture.user.answers = [{ approved: true }];
    const task = Task.create(fixture.options(), 'Write x.txt');
    assert.equal((await task.run()).status, 'completed');

    assert.deepEqual(askedCalls(fixture.user.asked), ['write_to_file x.txt']);
    assert.equal(fixture.ws.read('x.txt'), 'hello\n');
    const types = task.log.events.map((e) => e.type);
    assert.ok(types.indexOf('approval_asked') < types.indexOf('approval_answered'), types.join(' '));
    assert.ok(types.indexOf('approval_answered') < types.indexOf('tool_result'), types.join(' '));
  });

  test('rejected with feedback: nothing is written, and the model reads the denial and the feedback', async () => {
    fixture.provider.enqueue(WRITE_X, completeTurn());
    fixture.user.answers = [{ approved: false, feedback: 'Call it y.txt instead' }];
    const task = Task.create(fixture.options(), 'Write x.txt');
    assert.equal((await task.run()).status, 'completed');

    assert.equal(existsSync(join(fixture.ws.root, 'x.txt')), false, 'a rejected write ran');
    const answered = task.log.events.find((e) => e.type === 'approval_answered');
    assert.deepEqual(answered?.type === 'approval_answered' && [answered.approved, answered.feedback], [false, 'Call it y.txt instead']);
    assert.match(fixture.provider.textOf(1), /The user denied this operation and said:\n<feedback>\nCall it y\.txt instead\n<\/feedback>/);
  });

  test('a rejection is not a mistake of the model: rejections in a row do not stop the run', async () => {
    fixture.provider.enqueue(WRITE_X, WRITE_X, WRITE_X, WRITE_X, completeTurn());
    fixture.user.answers = [{ approved: false }, { approved: false }, { approved: false }, { approved: false }];
    const outcome = await Task.create(fixture.options({ maxConsecutiveMistakes: 2 }), 'Write x.txt').run();
    assert.deepEqual(outcome, { status: 'completed', result: 'Done.' });
    assert.equal(fixture.user.asked.length, 4);
  });

  test('approved with feedback: it is written, and the feedback reaches the model after the result', async () => {
    fixture.provider.enqueue(WRITE_X, completeTurn());
    fixture.user.answers = [{ approved: true, feedback: 'Next, add a test' }];
    const task = Task.create(fixture.options(), 'Write x.txt');
    assert.equal((await task.run()).status, 'completed');

    assert.equal(fixture.ws.read('x.txt'), 'hello\n');
    assert.match(fixture.provider.textOf(1), /The user approved with feedback:\n<feedback>\nNext, add a test\n<\/feedback>/);
  });

  test('the policy decides what runs without asking: reads do by default, edits only when allowed', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.provider.enqueue(toolTurn('read_file', { path: 'a.txt' }), WRITE_X, completeTurn());
    const task = Task.create(fixture.options({ policy: { ...DEFAULT_POLICY, editFiles: true } }), 'Copy a.txt');
    assert.equal((await task.run()).status, 'completed');

    assert.deepEqual(fixture.user.asked, [], 'nothing should have been asked');
    assert.equal(fixture.ws.read('x.txt'), 'hello\n');
    assert.equal(task.log.events.filter((e) => e.type === 'tool_auto_approved').length, 2);
  });

  test('a policy read before each call applies a change at once', async () => {
    let policy = DEFAULT_POLICY;
    fixture.provider.enqueue(WRITE_X, toolTurn('write_to_file', { path: 'y.txt', content: 'why' }), completeTurn());
    fixture.user.answers = [{ approved: true }];
    fixture.user.whileAsking = () => {
      policy = { ...DEFAULT_POLICY, editFiles: true };
    };
    const task = Task.create(fixture.options({ policy: () => policy }), 'Write two files');
    assert.equal((await task.run()).status, 'completed');
    assert.deepEqual(askedCalls(fixture.user.asked), ['write_to_file x.txt']);
    assert.equal(fixture.ws.read('y.txt'), 'why\n');
  });

  test('the cap on auto-approvals in a row asks once after that many', async () => {
    fixture.provider.enqueue(
      toolTurn('write_to_file', { path: '1.txt', content: '1' }),
      toolTurn('write_to_file', { path: '2.txt', content: '2' }),
      toolTurn('write_to_file', { path: '3.txt', content: '3' }),
      toolTurn('write_to_file', { path: '4.txt', content: '4' }),
      completeTurn(),
    );
    fixture.user.answers = [{ approved: true }];
    const task = Task.create(fixture.options({ policy: { ...APPROVE_ALL_POLICY, maxConsecutive: 2 } }), 'Write four files');
    assert.equal((await task.run()).status, 'completed');
    assert.deepEqual(askedCalls(fixture.user.asked), ['write_to_file 3.txt']);
    assert.equal(fixture.ws.read('4.txt'), '4\n');
  });

  test('one tool per message: the first call runs, the others are ignored and the model is told how many', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.provider.enqueue(
      { text: `${toolTurn('read_file', { path: 'a.txt' }).text}\n${WRITE_X.text}\n${toolTurn('read_file', { path: 'b.txt' }).text}` },
      completeTurn(),
    );
    fixture.user.answers = [{ approved: true }];
    const task = Task.create(fixture.options(), 'Read and write');
    assert.equal((await task.run()).status, 'completed');

    assert.deepEqual(fixture.user.asked, [], 'the ignored write was asked for');
    assert.equal(existsSync(join(fixture.ws.root, 'x.txt')), false, 'the ignored write ran');
    assert.deepEqual(
      task.log.events.flatMap((e) => (e.type === 'tool_requested' ? [e.tool] : [])),
      ['read_file', 'attempt_completion'],
    );
    assert.match(fixture.provider.textOf(1), /only one tool may be used per message; 2 more tool call\(s\) in your message were ignored/);
  });
});
