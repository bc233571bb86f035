// Messages the user types while a task works: queued, then logged as a user message just before
// the next model request, so the model reads them after the result of the step that was running.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { createTaskEnvironment, type TaskEnvironment } from '../../../src/core/session/task-environment.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/task/approval-policy.js';
import { Task } from '../../../src/core/task/task.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { lastUserText } from '../../helpers/agent-fixture.js';
import { gate } from '../../helpers/gate.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { eventually } from '../../unit/process/pid-liveness.js';

describe('Task.queueUserMessage', () => {
  let server: ScriptedLlmServer;
  let ws: TempWorkspace;
  let storage: string;
  let environment: TaskEnvironment | undefined;
  before(async () => (server = await startScriptedLlmServer()));
  after(() => server.close());
  beforeEach(() => {
    ws = createTempWorkspace();
    storage = mkdtempSync(join(tmpdir(), 'smith-storage-'));
    server.requests.length = 0;
  });
  afterEach(async () => {
    await environment?.dispose();
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  async function newTask(text: string): Promise<Task> {
    const harness = new ToolHarness(ws.root);
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: server.openAiBaseUrl });
    environment = await createTaskEnvironment({ cwd: ws.root, storageDir: storage, host: harness.host, provider, policy: APPROVE_ALL_POLICY, maxIterations: 5 });
    return Task.create({ ...environment.options, retry: { maxRetries: 0 } }, text);
  }

  test('a message queued during a response reaches the next request after the tool result', async () => {
    ws.write('a.txt', 'alpha\n');
    const queued = gate();
    server.enqueue(
      { text: '<read_file>\n<path>a.txt</path>\n</read_file>', hold: { afterEvents: 1, until: queued.promise } },
      { text: '<attempt_completion>\n<result>Read it.</result>\n</attempt_completion>' },
    );
    const task = await newTask('Read a.txt');
    const run = task.run();
    assert.ok(await eventually(() => server.requests.length === 1, 30_000), 'the first request never came');
    task.queueUserMessage('Also mention its length');
    assert.deepEqual(task.queuedMessages, ['Also mention its length']);
    // Not logged while the response streams: the log keeps the order the model reads.
    assert.equal(task.log.events.some((e) => e.type === 'user_message'), false);
    queued.open();
    const outcome = await run;

    assert.equal(outcome.status, 'completed');
    assert.deepEqual(task.queuedMessages, []);
    const next = lastUserText(server.requests[1]!);
    assert.ok(next.indexOf('1 | alpha') >= 0 && next.indexOf('1 | alpha') < next.indexOf('<user_message>\nAlso mention its length\n</user_message>'), next);
    const types = task.log.events.map((e) => e.type);
    assert.ok(types.indexOf('tool_result') < types.indexOf('user_message'));
    assert.ok(types.indexOf('user_message') < types.lastIndexOf('request_started'));
  });

  test('a message queued after the last request stays queued; the next run delivers it', async () => {
    const queued = gate();
    server.enqueue(
      { text: '<attempt_completion>\n<result>One.</result>\n</attempt_completion>', hold: { afterEvents: 1, until: queued.promise } },
      { text: '<attempt_completion>\n<result>Two.</result>\n</attempt_completion>' },
    );
    const task = await newTask('Count');
    const run = task.run();
    assert.ok(await eventually(() => server.requests.length === 1, 30_000), 'the first request never came');
    task.queueUserMessage('Go on');
    queued.open();
    assert.equal((await run).status, 'completed');
    assert.deepEqual(task.queuedMessages, ['Go on']);

    const second = await task.run();
    assert.deepEqual(second, { status: 'completed', result: 'Two.' });
    assert.match(lastUserText(server.requests[1]!), /<user_message>\nGo on\n<\/user_message>/);
  });
});
