// update_todo_list through a real Task: the list the model writes is in the next request's
// environment details; a list without items is the model's mistake.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { Task } from '../../../src/core/task/task.js';
import { lastUserText, useTaskFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

describe('update_todo_list in a task', () => {
  const fixture = useTaskFixture();

  test("the model's list reaches the next request; an empty list is refused", async () => {
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, new ToolHarness(fixture.ws.root).host);
    fixture.server.enqueue(
      { text: '<update_todo_list>\n<todos>\nno items here\n</todos>\n</update_todo_list>' },
      { text: '<update_todo_list>\n<todos>\n- [-] Find the bug\n- [ ] Fix it\n</todos>\n</update_todo_list>' },
      { text: '<attempt_completion>\n<result>Planned.</result>\n</attempt_completion>' },
    );
    const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Fix the bug');
    assert.equal((await task.run()).status, 'completed');
    assert.match(lastUserText(fixture.server.requestAt(1)), /The todo list has no items/);
    assert.doesNotMatch(lastUserText(fixture.server.requestAt(1)), /# Todo list/);
    assert.match(lastUserText(fixture.server.requestAt(2)), /# Todo list\n- \[-\] Find the bug\n- \[ \] Fix it/);
    assert.match(fixture.server.requestAt(0).body.messages[0].content, /## update_todo_list/);
  });
});
