// Messages the user types while a task works: queued, then logged as a user message just before
// the next model request, so the model reads them after the result of the step that was running.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { Task } from '../../../src/core/task/task.js';
import { lastUserText, useTaskFixture } from '../../helpers/agent-fixture.js';
import { gate } from '../../helpers/gate.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { eventually } from '../../helpers/pid-liveness.js';

describe('Task.queueUserMessage', () => {
  const fixture = useTaskFixture();

  async function newTask(text: string): Promise<Task> {
    const harness = new ToolHarness(fixture.ws.root);
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host);
    return Task.create({ ...environment.options, retry: { maxRetries: 0 } }, text);
  }

  test('a message queued during a response reaches the next request after the tool result', async () => {
    fixture.ws.write('a.txt', 'alpha\n');
    const queued = gate();
    fixture.server.enqueue(
      { text: '<read_file>\n<path>a.txt</path>\n</read_file>', hold: { afterEvents: 1, until: queued.promise } },
      { text: '<attempt_completion>\n<result>Read it.</result>\n</attempt_completion>' },
    );
    const task = await newTask('Read a.txt');
    const run = task.run();
    assert.ok(await eventually(() => fixture.server.requests.length === 1, 30_000), 'the first request never came');
    task.queueUserMessage('Also mention its length');
    assert.deepEqual(task.queuedMessages, ['Also mention its length']);
    // Not logged while the response streams: the log keeps the order the model reads.
    assert.equal(
      task.log.events.some((e) => e.type === 'user_message'),
      false,
    );
    queued.open();
    const outcome = await run;

    assert.equal(outcome.status, 'completed');
    assert.deepEqual(task.queuedMessages, []);
    const next = lastUserText(fixture.server.requestAt(1));
    assert.ok(next.indexOf('1 | alpha') >= 0 && next.indexOf('1 | alpha') < next.indexOf('<user_message>\nAlso mention its length\n</user_message>'), next);
    const types = task.log.events.map((e) => e.type);
    assert.ok(types.indexOf('tool_result') < types.indexOf('user_message'));
    assert.ok(types.indexOf('user_message') < types.lastIndexOf('request_started'));
  });

  test('a message queued after the last request stays queued; the next run delivers it', async () => {
    const queued = gate();
    fixture.server.enqueue(
      { text: '<attempt_completion>\n<result>One.</result>\n</attempt_completion>', hold: { afterEvents: 1, until: queued.promise } },
      { text: '<attempt_completion>\n<result>Two.</result>\n</attempt_completion>' },
    );
    const task = await newTask('Count');
    const run = task.run();
    assert.ok(await eventually(() => fixture.server.requests.length === 1, 30_000), 'the first request never came');
    task.queueUserMessage('Go on');
    queued.open();
    assert.equal((await run).status, 'completed');
    assert.deepEqual(task.queuedMessages, ['Go on']);

    const second = await task.run();
    assert.deepEqual(second, { status: 'completed', result: 'Two.' });
    assert.match(lastUserText(fixture.server.requestAt(1)), /<user_message>\nGo on\n<\/user_message>/);
  });
});
