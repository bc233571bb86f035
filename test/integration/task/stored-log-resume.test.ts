// A task whose log an earlier build wrote (event version 1, test/fixtures/logs) resumes with this
// build: the model is sent the old conversation as that build projected it, the new lines carry
// the current version, and the whole log reads back as one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { Task } from '../../../src/core/task/task.js';
import { TaskLog } from '../../../src/core/log/task-log.js';
import { EVENT_VERSION } from '../../../src/core/log/upcast-events.js';
import { lastUserText, useTaskFixture } from '../../helpers/agent-fixture.js';
import { installStoredLog, storedLogProjections, storedLogText } from '../../helpers/stored-logs.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const COMPLETION = '<attempt_completion>\n<result>Read again.</result>\n</attempt_completion>';

describe('resuming a task from a log an earlier build wrote', () => {
  const fixture = useTaskFixture();

  async function resume(taskId: string): Promise<Task> {
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, new ToolHarness(fixture.ws.root).host);
    return Task.resume({ ...environment.options, retry: { maxRetries: 0 } }, taskId);
  }

  test('a completed task takes a follow-up: the model sees the old conversation as before', async () => {
    installStoredLog(fixture.storage, 'v1-xml-task', 'old');
    const task = await resume('old');
    task.addUserMessage('Check once more.');
    fixture.server.enqueue({ text: COMPLETION });

    const outcome = await task.run();

    assert.equal(outcome.status, 'completed', JSON.stringify(task.log.events.at(-1)));
    const sent = (fixture.server.requestAt(0).body.messages as Array<{ role: string; content: string }>).filter((m) => m.role !== 'system');
    const before = storedLogProjections('v1-xml-task').api;
    // Everything up to the old last reply goes out exactly as the old build projected it.
    assert.deepEqual(sent.slice(0, before.length - 1), before.slice(0, -1));
    assert.match(lastUserText(fixture.server.requestAt(0)), /Check once more\./);
    const lines = readFileSync(task.log.file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const added = lines.filter((line) => line.v !== undefined);
    assert.ok(added.length >= 4, 'resume, message, request, reply, call, completion were appended');
    assert.ok(added.every((line) => line.v === EVENT_VERSION));
    assert.equal(lines.length - added.length, storedLogText('v1-xml-task').trim().split('\n').length, 'the old lines stay as written');
    assert.deepEqual(TaskLog.open(fixture.storage, 'old').events, task.log.events);
  });

  test('a log cut mid-run by a crash resumes where it stopped', async () => {
    // Through the tool error of the mismatched SEARCH block (seq 22): the next request was never made.
    installStoredLog(fixture.storage, 'v1-xml-task', 'cut', 23);
    const task = await resume('cut');
    fixture.server.enqueue({ text: COMPLETION });

    const outcome = await task.run();

    assert.equal(outcome.status, 'completed', JSON.stringify(task.log.events.at(-1)));
    assert.match(lastUserText(fixture.server.requestAt(0)), /\[replace_in_file for 'notes\.txt'\] Error:[\s\S]*TASK RESUMPTION/);
    assert.equal(task.log.events.filter((e) => e.type === 'model_response').length, 5);
  });
});
