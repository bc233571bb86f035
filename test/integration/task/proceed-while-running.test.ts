// "Proceed while running" through the Task: the host asks a running execute_command call to go on
// in the background, the loop continues with the "still running" result, and the command lives on
// in the task's sessions until they are disposed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { Task } from '../../../src/core/task/task.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { eventually, isPidAlive } from '../../helpers/pid-liveness.js';

const COMMAND = "sh -c 'echo $$ > cmd.pid; echo start; sleep 30'";

describe('Task.proceedWhileRunning', { skip: process.platform === 'win32' && 'POSIX shell test' }, () => {
  const fixture = useTaskFixture();

  test('the running command goes to the background, the loop goes on and the next request reports it', async () => {
    const harness = new ToolHarness(fixture.ws.root);
    harness.processes = new ChildProcessRunner({ killGraceMs: 1000 });
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host);
    fixture.server.enqueue(
      // A given timeout disables the quiet hand-off, so only the user's request can end the wait.
      { text: `<execute_command>\n<command>${COMMAND}</command>\n<requires_approval>false</requires_approval>\n<timeout>120</timeout>\n</execute_command>` },
      { text: '<attempt_completion>\n<result>Started.</result>\n</attempt_completion>' },
    );
    const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Start the command');
    let callId: string | undefined;
    let output = '';
    task.onUpdate((update) => {
      if (update.type === 'event' && update.event.type === 'tool_requested') callId = update.event.callId;
      if (update.type === 'progress') output += update.text;
    });
    assert.equal(task.proceedWhileRunning('call-none'), false);

    const run = task.run();
    assert.ok(await eventually(() => output.includes('start')), `no output yet: ${JSON.stringify(output)}`);
    assert.equal(task.proceedWhileRunning(callId!), true);
    const outcome = await run;

    assert.equal(outcome.status, 'completed', JSON.stringify(task.log.events.at(-1)));
    const result = task.log.events.find((e) => e.type === 'tool_result');
    assert.match(result?.type === 'tool_result' ? result.output : '', /^Command is still running \(id 1\): the user chose to continue while it runs\./);
    assert.equal(task.proceedWhileRunning(callId!), false, 'the call is no longer executing');
    const details = task.log.events.filter((e) => e.type === 'request_started').at(-1);
    assert.match(details?.type === 'request_started' ? details.environmentDetails : '', /## Command 1 \(running for [^)]*\)\n\$ sh -c/);
    const pid = Number(fixture.ws.read('cmd.pid').trim());
    assert.ok(isPidAlive(pid), 'the command outlives its tool call');
    await environment.dispose();
    assert.ok(await eventually(() => !isPidAlive(pid)), `command ${pid} still alive after dispose`);
  });
});
