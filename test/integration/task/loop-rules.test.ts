// The loop's rules, in process against the scripted model server: one tool per message (the rest
// is ignored and the model told so), and abort (mid-stream and during a command) ends the run with
// what happened kept in the log.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { Task, type TaskOptions } from '../../../src/core/task/task.js';
import { allText, useTaskFixture } from '../../helpers/agent-fixture.js';
import { eventually } from '../../helpers/pid-liveness.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const COMPLETE = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

describe('loop rules', () => {
  const fixture = useTaskFixture();

  async function options(harness = new ToolHarness(fixture.ws.root)): Promise<TaskOptions> {
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host, { maxIterations: 10 });
    return { ...environment.options, retry: { maxRetries: 0 } };
  }

  test('one tool per message: the first runs, the others are ignored and the model is told how many', async () => {
    fixture.ws.write('a.txt', 'A\n');
    fixture.ws.write('b.txt', 'B\n');
    fixture.server.enqueue(
      {
        text: 'Reading both.\n<read_file>\n<path>a.txt</path>\n</read_file>\n<read_file>\n<path>b.txt</path>\n</read_file>\n<write_to_file>\n<path>c.txt</path>\n<content>C</content>\n</write_to_file>',
      },
      COMPLETE,
    );
    const task = Task.create(await options(), 'Read the files');
    const outcome = await task.run();

    assert.equal(outcome.status, 'completed');
    const requested = task.log.events.filter((e) => e.type === 'tool_requested');
    assert.deepEqual(
      requested.map((e) => (e.type === 'tool_requested' ? `${e.tool} ${e.params.path}` : '')),
      ['read_file a.txt', 'attempt_completion undefined'],
    );
    assert.equal(existsSync(join(fixture.ws.root, 'c.txt')), false, 'the ignored write ran');
    const next = allText(fixture.server.requestAt(1));
    assert.match(next, /only one tool may be used per message; 2 more tool call\(s\) in your message were ignored/);
  });

  test('abort while the model streams: the run ends aborted, the partial answer is not a tool call', async () => {
    fixture.server.enqueue({ fault: 'stall', text: '<write_to_file>\n<path>x.txt</path>\n<content>partial', afterChunks: 4, chunkSize: 8 });
    const task = Task.create(await options(), 'Write x');
    let streamed = '';
    task.onUpdate((update) => {
      if (update.type === 'delta' && update.delta.kind === 'text') streamed += update.delta.text;
    });
    const run = task.run();
    assert.ok(await eventually(() => streamed.includes('x.txt')), `streamed only ${JSON.stringify(streamed)}`);
    task.abort();
    const outcome = await run;

    assert.equal(outcome.status, 'aborted');
    assert.equal(task.log.events.at(-1)?.type, 'task_aborted');
    assert.equal(
      task.log.events.some((e) => e.type === 'tool_requested'),
      false,
      'a cut-off tool call must not run',
    );
    // The partial answer stays, and the model is told it was cut off when the task goes on.
    const cut = task.log.events.find((e) => e.type === 'response_interrupted');
    assert.ok(cut?.type === 'response_interrupted' && cut.byUser === true && cut.partialText.startsWith('<write_to_file>'), JSON.stringify(cut));
    fixture.server.enqueue(COMPLETE);
    task.addUserMessage('Go on');
    assert.equal((await task.run()).status, 'completed');
    const next = allText(fixture.server.requestAt(1));
    assert.match(next, /The user interrupted your previous answer: it was cut off where it ends above/);
    assert.match(next, /<write_to_file>\n<path>x\.txt<\/pat\n\[The user interrupted/);
  });

  test('a message sent while the model answers (steer) cuts the answer off and reaches the model at once', async () => {
    fixture.server.enqueue({ fault: 'stall', text: 'I will rewrite every file in the repository, starting with', afterChunks: 2, chunkSize: 10 }, COMPLETE);
    const task = Task.create(await options(), 'Tidy up');
    let streamed = '';
    task.onUpdate((update) => {
      if (update.type === 'delta' && update.delta.kind === 'text') streamed += update.delta.text;
    });
    const run = task.run();
    assert.ok(await eventually(() => streamed.length >= 20), 'nothing streamed');
    task.steer('Only touch src/, please.');
    const outcome = await run;

    assert.equal(outcome.status, 'completed', JSON.stringify(task.log.events.at(-1)));
    const cut = task.log.events.find((e) => e.type === 'response_interrupted');
    assert.ok(cut?.type === 'response_interrupted' && cut.byUser === true && cut.error === 'a new message was sent', JSON.stringify(cut));
    assert.equal(fixture.server.requests.length, 2);
    const next = allText(fixture.server.requestAt(1));
    assert.match(next, /I will rewrite every/);
    assert.match(next, /The user interrupted your previous answer/);
    assert.match(next, /<user_message>\nOnly touch src\/, please\.\n<\/user_message>/);
    assert.equal(task.queuedMessages.length, 0);
  });

  test('queued messages can be changed or removed until they are delivered', async () => {
    const task = Task.create(await options(), 'Wait');
    task.queueUserMessage('first');
    task.queueUserMessage('second');
    assert.equal(task.updateQueued(0, 'first, edited'), true);
    assert.equal(task.updateQueued(1), true);
    assert.equal(task.updateQueued(5, 'x'), false);
    assert.deepEqual(task.queuedMessages, ['first, edited']);
  });

  test('abort during a command kills it and logs the call as ended', async () => {
    const harness = new ToolHarness(fixture.ws.root);
    harness.processes = new ChildProcessRunner({ killGraceMs: 1000 });
    fixture.server.enqueue({
      text: "<execute_command>\n<command>sh -c 'echo started; sleep 60'</command>\n<requires_approval>false</requires_approval>\n<timeout>120</timeout>\n</execute_command>",
    });
    const task = Task.create(await options(harness), 'Run it');
    let output = '';
    task.onUpdate((update) => {
      if (update.type === 'progress') output += update.text;
    });
    const run = task.run();
    assert.ok(await eventually(() => output.includes('started')), 'the command never started');
    task.abort();
    const outcome = await run;

    assert.equal(outcome.status, 'aborted');
    const types = task.log.events.map((e) => e.type);
    assert.ok(types.includes('command_started'), types.join(', '));
    assert.equal(types.at(-1), 'task_aborted');
  });
});
