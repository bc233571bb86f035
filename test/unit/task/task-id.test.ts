import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseWebviewMessage } from '../../../src/shared/protocol.js';
import { checkTaskId, InvalidTaskIdError, MAX_TASK_ID_LENGTH, taskIdProblem } from '../../../src/shared/task-id.js';
import { taskDir } from '../../../src/core/log/task-log.js';

const BAD = [
  '',
  '..',
  '.',
  '../x',
  'a/b',
  '/abs',
  'a\\b',
  '..\\x',
  'a\0b',
  'x'.repeat(MAX_TASK_ID_LENGTH + 1),
  '.hidden',
  'a..b',
  'a b',
  'tab\there',
  'new\nline',
  'é',
];
const GOOD = ['20260101T000000-abc123', 'task-1', 't', 'mcp-serve', 'a.b', 'A_b-9', 'x'.repeat(MAX_TASK_ID_LENGTH)];

describe('the task id rule', () => {
  it('accepts the ids Smith makes and plain names', () => {
    for (const id of GOOD) assert.equal(taskIdProblem(id), undefined, id);
  });

  it('refuses anything that could name another place, with why', () => {
    for (const id of BAD) {
      assert.ok(taskIdProblem(id), JSON.stringify(id));
      assert.throws(() => checkTaskId(id), InvalidTaskIdError);
    }
    assert.match(taskIdProblem('../x') ?? '', /"\.\."/);
    assert.match(taskIdProblem('a/b') ?? '', /"\/"/);
    assert.match(taskIdProblem('') ?? '', /empty/);
  });

  it('the task store refuses them too: no path is made from a bad id', () => {
    for (const id of BAD) assert.throws(() => taskDir('/storage', id), InvalidTaskIdError, JSON.stringify(id));
    assert.equal(taskDir('/storage', 'task-1'), '/storage/tasks/task-1');
  });

  it('every panel message that carries a task id is refused with a bad one', () => {
    const messages: Array<Record<string, unknown>> = [
      { type: 'openTask', id: 'r' },
      { type: 'deleteTask', id: 'r' },
      { type: 'exportTask', id: 'r' },
      { type: 'condense', id: 'r' },
      { type: 'stopSubagent', id: 'r' },
      { type: 'editTodos', id: 'r', items: [] },
      { type: 'replayTask', id: 'r', model: 'm' },
      { type: 'compareCheckpoint', id: 'r', checkpointId: '1' },
      { type: 'openScreenshot', id: 'r', callId: 'c' },
      { type: 'restoreCheckpoint', id: 'r', checkpointId: '1', scope: 'files' },
      { type: 'editMessage', id: 'r', seq: 1, text: 'x', restoreFiles: true },
    ];
    for (const message of messages) {
      assert.equal(parseWebviewMessage({ ...message, taskId: 'task-1' }).ok, true, `${message.type} with a good id`);
      for (const id of BAD) assert.equal(parseWebviewMessage({ ...message, taskId: id }).ok, false, `${message.type} with ${JSON.stringify(id)}`);
    }
  });
});
