// A model repeating itself: the same call with the same parameters, or the same tool failing the
// same way, N times in a row. The model is told once; one more repeat asks the user, and with
// no one to ask the task stops with a clear message.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { apiProjection } from '../../../src/core/task/api-projection.js';
import { repeatRun } from '../../../src/core/task/repeated-calls.js';
import { Task } from '../../../src/core/task/task.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import { askFollowupQuestionTool } from '../../../src/core/tools/ask-followup-question.js';
import { attemptCompletionTool } from '../../../src/core/tools/attempt-completion.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import { searchFilesTool } from '../../../src/core/tools/search-files.js';
import { useInMemoryTask } from '../../helpers/in-memory-task.js';
import { completeTurn, toolTurn } from '../../helpers/scripted-provider.js';

const READ_A = toolTurn('read_file', { path: 'a.txt' });
const tools = new ToolRegistry([readFileTool, searchFilesTool, replaceInFileTool, askFollowupQuestionTool, attemptCompletionTool]);
const lastUserText = (request: { messages: readonly { role: string; content: unknown }[] }) => JSON.stringify(request.messages.at(-1)?.content ?? '');

describe('repeated calls', () => {
  const fixture = useInMemoryTask();

  test('after 3 identical calls the model is told; the 4th asks the user, and no answer stops the task', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.provider.enqueue(READ_A, READ_A, READ_A, READ_A, completeTurn());
    const task = Task.create(fixture.options(), 'Read a.txt');
    const outcome = await task.run();

    assert.equal(outcome.status, 'failed');
    assert.match(
      outcome.status === 'failed' ? outcome.error : '',
      /^Stopped: the model made the same read_file call 4 times in a row and did not change course when told\./,
    );
    assert.equal(fixture.provider.requests.length, 4, 'no request after the stop');
    assert.doesNotMatch(lastUserText(fixture.provider.requests[2]!), /same read_file call/, 'not told before the third call');
    assert.match(lastUserText(fixture.provider.requests[3]!), /You have made the same read_file call with the same parameters 3 times in a row/);
    assert.equal(fixture.questions.length, 1);
    assert.match(fixture.questions[0]!.question, /^The model made the same read_file call 4 times in a row, after it was told/);
    const loops = task.log.events.filter((e) => e.type === 'loop_detected').map((e) => (e.type === 'loop_detected' ? [e.action, e.count] : []));
    assert.deepEqual(loops, [
      ['told', 3],
      ['stopped', 4],
    ]);
  });

  test('"Let it go on" lets the run continue and starts counting again', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.provider.enqueue(READ_A, READ_A, READ_A, READ_A, READ_A, completeTurn());
    fixture.questionAnswers.push('Let it go on');
    const outcome = await Task.create(fixture.options(), 'Read a.txt').run();
    assert.deepEqual(outcome, { status: 'completed', result: 'Done.' });
    assert.equal(fixture.questions.length, 1, 'asked once: the count started again after the answer');
  });

  test('the same parameters in another order are the same call; a different call in between breaks the run', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.ws.write('b.txt', 'beta\n');
    const searchOne = { text: '<search_files>\n<path>.</path>\n<regex>alpha</regex>\n</search_files>' };
    const searchOther = { text: '<search_files>\n<regex>alpha</regex>\n<path>.</path>\n</search_files>' };
    fixture.provider.enqueue(searchOne, searchOther, toolTurn('read_file', { path: 'b.txt' }), searchOne, searchOther, completeTurn());
    const task = Task.create(fixture.options({ tools }), 'Search');
    assert.equal((await task.run()).status, 'completed');
    assert.deepEqual(
      task.log.events.filter((e) => e.type === 'loop_detected'),
      [],
      'two, then another call, then two: never three in a row',
    );
    fixture.provider.enqueue(searchOne, searchOther, searchOne, completeTurn());
    const again = Task.create(fixture.options({ tools }), 'Search again');
    assert.equal((await again.run()).status, 'completed');
    assert.equal(again.log.events.filter((e) => e.type === 'loop_detected').length, 1, 'reordered parameters count as the same call');
  });

  test('an edit failing the same way on the same file counts, whatever its replacement text', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    const edit = (replace: string) => ({
      text: `<replace_in_file>\n<path>a.txt</path>\n<diff>\n------- SEARCH\nomega\n=======\n${replace}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`,
    });
    fixture.provider.enqueue(edit('one'), edit('two'), edit('three'), completeTurn());
    const task = Task.create(fixture.options({ tools, maxConsecutiveMistakes: 10 }), 'Edit a.txt');
    await task.run();
    const told = task.log.events.find((e) => e.type === 'loop_detected');
    assert.deepEqual(told?.type === 'loop_detected' ? [told.action, told.tool, told.count, told.sameFailure] : [], ['told', 'replace_in_file', 3, true]);
    assert.match(lastUserText(fixture.provider.requests[3]!), /Your last 3 replace_in_file calls failed the same way/);
  });

  test('a message from the user starts the count again; 0 turns detection off', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    fixture.provider.enqueue(READ_A, READ_A, READ_A, READ_A, READ_A, completeTurn());
    const off = Task.create(fixture.options({ maxRepeatedCalls: 0 }), 'Read a.txt');
    assert.equal((await off.run()).status, 'completed');
    assert.deepEqual(
      off.log.events.filter((e) => e.type === 'loop_detected'),
      [],
    );
    const events = [...off.log.events.slice(0, 12), { type: 'user_message', text: 'go on', seq: 999, ts: 0 }] as Parameters<typeof repeatRun>[0];
    assert.equal(repeatRun(events), undefined, 'the user spoke: no run');
  });

  test('the note reaches the model in the native protocol too', () => {
    const events = [
      { type: 'task_started', task: 't', seq: 0, ts: 0 },
      { type: 'loop_detected', tool: 'read_file', count: 3, action: 'told', sameFailure: false, seq: 1, ts: 0 },
      { type: 'request_started', seq: 2, ts: 0 },
    ] as Parameters<typeof apiProjection>[0];
    assert.match(JSON.stringify(apiProjection(events, { toolProtocol: 'native' })), /same read_file call with the same parameters 3 times/);
  });
});
