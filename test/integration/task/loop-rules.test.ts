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
      { text: 'Reading both.\n<read_file>\n<path>a.txt</path>\n</read_file>\n<read_file>\n<path>b.txt</path>\n</read_file>\n<write_to_file>\n<path>c.txt</path>\n<content>C</content>\n</write_to_file>' },
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
    fixture.server.enqueue({ fault: 'stall', text: '<write_to_file>\n<path>x.txt</path>\n<content>partial', afterChunks: 2, chunkSize: 8 });
    const task = Task.create(await options(), 'Write x');
    const run = task.run();
    assert.ok(await eventually(() => fixture.server.requests.length === 1), 'no request was made');
    task.abort();
    const outcome = await run;

    assert.equal(outcome.status, 'aborted');
    assert.equal(task.log.events.at(-1)?.type, 'task_aborted');
    assert.equal(task.log.events.some((e) => e.type === 'tool_requested'), false, 'a cut-off tool call must not run');
  });

  test('abort during a command kills it and logs the call as ended', async () => {
    const harness = new ToolHarness(fixture.ws.root);
    harness.processes = new ChildProcessRunner({ killGraceMs: 1000 });
    fixture.server.enqueue({ text: "<execute_command>\n<command>sh -c 'echo started; sleep 60'</command>\n<requires_approval>false</requires_approval>\n<timeout>120</timeout>\n</execute_command>" });
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
