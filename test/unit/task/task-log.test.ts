import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { TaskLog, listStoredTasks, taskStatus } from '../../../src/core/task/task-log.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

describe('TaskLog', () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = createTempWorkspace()));
  afterEach(() => ws.dispose());

  test('appends one JSON line per event, with position and time, and reopens identically', () => {
    let clock = 100;
    const log = TaskLog.create(ws.root, 't1', () => clock++);
    log.append({ type: 'task_started', taskId: 't1', task: 'do it', cwd: '/w', provider: 'openai', model: 'm', mode: 'act', skill: 'code' });
    log.append({ type: 'user_message', text: 'more' });
    const lines = readFileSync(log.file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.seq, l.ts, l.type]), [[0, 100, 'task_started'], [1, 101, 'user_message']]);
    assert.deepEqual(TaskLog.open(ws.root, 't1').events, log.events);
  });

  test('ignores a torn last line left by a crash, but not corruption in the middle', () => {
    const log = TaskLog.create(ws.root, 't2');
    log.append({ type: 'user_message', text: 'a' });
    appendFileSync(log.file, '{"type":"user_mess');
    assert.equal(TaskLog.open(ws.root, 't2').events.length, 1);
    appendFileSync(log.file, '\n{"seq":2,"ts":1,"type":"no_tool_used"}\n');
    assert.throws(() => TaskLog.open(ws.root, 't2'), /corrupt at line 2/);
  });

  test('refuses to create a task twice and to open an unknown one', () => {
    TaskLog.create(ws.root, 't3');
    assert.throws(() => TaskLog.create(ws.root, 't3'), /already exists/);
    assert.throws(() => TaskLog.open(ws.root, 'missing'), /No task with id "missing"/);
  });

  test('lists stored tasks newest first with their status', () => {
    let clock = 1;
    const first = TaskLog.create(ws.root, 'a', () => clock++);
    first.append({ type: 'task_started', taskId: 'a', task: 'first', cwd: '/', provider: 'p', model: 'm', mode: 'act', skill: 'code' });
    first.append({ type: 'task_completed', result: 'ok' });
    const second = TaskLog.create(ws.root, 'b', () => clock++);
    second.append({ type: 'task_started', taskId: 'b', task: 'second', cwd: '/', provider: 'p', model: 'm', mode: 'act', skill: 'code' });
    assert.deepEqual(
      listStoredTasks(ws.root).map((t) => [t.taskId, t.task, t.status]),
      [['b', 'second', 'interrupted'], ['a', 'first', 'completed']],
    );
    assert.equal(taskStatus([]), 'interrupted');
  });
});
