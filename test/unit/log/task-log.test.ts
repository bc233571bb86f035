import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { TaskLog, listStoredTasks, taskStatus } from '../../../src/core/log/task-log.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

describe('TaskLog', () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = createTempWorkspace()));
  afterEach(() => ws.dispose());

  test('appends one JSON line per event, with position and time, and reopens identically', () => {
    let clock = 100;
    const log = TaskLog.create(ws.root, 't1', () => clock++);
    log.append({ type: 'task_started', taskId: 't1', task: 'do it', cwd: '/w', provider: 'openai', model: 'm', mode: 'act', modeSlug: 'code' });
    log.append({ type: 'user_message', text: 'more' });
    const lines = readFileSync(log.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => [l.seq, l.ts, l.type]),
      [
        [0, 100, 'task_started'],
        [1, 101, 'user_message'],
      ],
    );
    assert.deepEqual(TaskLog.open(ws.root, 't1').events, log.events);
  });

  test('ignores a torn last line left by a crash, but not corruption in the middle', () => {
    const log = TaskLog.create(ws.root, 't2');
    log.append({ type: 'user_message', text: 'a' });
    appendFileSync(log.file, '{"type":"user_mess');
    assert.equal(TaskLog.open(ws.root, 't2').events.length, 1);
    const middle = TaskLog.create(ws.root, 't2b');
    middle.append({ type: 'user_message', text: 'a' });
    appendFileSync(middle.file, '{"type":"user_mess\n{"seq":2,"ts":1,"type":"no_tool_used"}\n');
    assert.throws(() => TaskLog.open(ws.root, 't2b'), /corrupt at line 2/);
  });

  test('repairs a torn last line on open, so appending and reopening again work', () => {
    const log = TaskLog.create(ws.root, 'torn');
    log.append({ type: 'user_message', text: 'a' });
    appendFileSync(log.file, '{"seq":1,"ts":5,"type":"user_mess');
    const reopened = TaskLog.open(ws.root, 'torn');
    assert.equal(reopened.events.length, 1);
    // The cut text is kept beside the log, not lost.
    assert.equal(readFileSync(`${log.file}.torn`, 'utf8'), '{"seq":1,"ts":5,"type":"user_mess');
    reopened.append({ type: 'task_resumed' });
    reopened.append({ type: 'user_message', text: 'b' });
    const again = TaskLog.open(ws.root, 'torn');
    assert.deepEqual(
      again.events.map((e) => [e.seq, e.type]),
      [
        [0, 'user_message'],
        [1, 'task_resumed'],
        [2, 'user_message'],
      ],
    );
    assert.deepEqual(again.events, reopened.events);
    const lines = readFileSync(log.file, 'utf8').split('\n');
    assert.deepEqual(
      lines.map((line) => (line === '' ? '' : JSON.parse(line).seq)),
      [0, 1, 2, ''],
    );
  });

  test('keeps a whole last event whose newline never reached the disk, and ends its line', () => {
    const log = TaskLog.create(ws.root, 'no-newline');
    log.append({ type: 'user_message', text: 'a' });
    appendFileSync(log.file, '{"seq":1,"ts":5,"type":"task_resumed"}');
    const reopened = TaskLog.open(ws.root, 'no-newline');
    assert.equal(reopened.events.length, 2);
    assert.equal(existsSync(`${log.file}.torn`), false);
    reopened.append({ type: 'user_message', text: 'b' });
    assert.deepEqual(
      TaskLog.open(ws.root, 'no-newline').events.map((e) => e.seq),
      [0, 1, 2],
    );
  });

  test('lists the readable tasks and warns about an unreadable log instead of failing', () => {
    const good = TaskLog.create(ws.root, 'good', () => 1);
    good.append({ type: 'task_started', taskId: 'good', task: 'fine', cwd: '/', provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
    const corrupt = TaskLog.create(ws.root, 'corrupt', () => 2);
    corrupt.append({ type: 'task_started', taskId: 'corrupt', task: 'broken', cwd: '/', provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
    appendFileSync(corrupt.file, 'not json\n{"seq":2,"ts":3,"type":"no_tool_used"}\n');
    // A folder where the log file should be: reading it fails with EISDIR.
    mkdirSync(join(ws.root, 'tasks', 'odd', 'events.jsonl'), { recursive: true });
    const warnings: string[] = [];
    const listed = listStoredTasks(ws.root, (message) => warnings.push(message));
    assert.deepEqual(
      listed.map((t) => t.taskId),
      ['good'],
    );
    assert.equal(warnings.length, 2);
    assert.match(warnings.find((w) => w.includes('corrupt'))!, /Skipped task corrupt in the history: .*corrupt at line 2/);
    assert.match(warnings.find((w) => w.includes('odd'))!, /Skipped task odd/);
  });

  test('refuses to create a task twice and to open an unknown one', () => {
    TaskLog.create(ws.root, 't3');
    assert.throws(() => TaskLog.create(ws.root, 't3'), /already exists/);
    assert.throws(() => TaskLog.open(ws.root, 'missing'), /No task with id "missing"/);
  });

  test('lists stored tasks newest first with their status', () => {
    let clock = 1;
    const first = TaskLog.create(ws.root, 'a', () => clock++);
    first.append({ type: 'task_started', taskId: 'a', task: 'first', cwd: '/', provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
    first.append({
      type: 'model_response',
      text: 'ok',
      reasoning: '',
      blocks: [{ kind: 'text', text: 'ok', partial: false }],
      usage: { inputTokens: 10, outputTokens: 2 },
      cost: 0.25,
    });
    first.append({ type: 'task_completed', result: 'ok' });
    const second = TaskLog.create(ws.root, 'b', () => clock++);
    second.append({ type: 'task_started', taskId: 'b', task: 'second', cwd: '/', provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
    assert.deepEqual(
      listStoredTasks(ws.root).map((t) => [t.taskId, t.task, t.status]),
      [
        ['b', 'second', 'interrupted'],
        ['a', 'first', 'completed'],
      ],
    );
    assert.deepEqual(
      listStoredTasks(ws.root).map((t) => t.cost),
      [undefined, 0.25],
      'a task without a priced request has no cost',
    );
    // The task's first message edited and run again: the history shows the new text.
    first.append({ type: 'conversation_rewound', checkpointId: '', files: false, toSeq: 1, task: 'first, edited' });
    assert.equal(listStoredTasks(ws.root).find((t) => t.taskId === 'a')?.task, 'first, edited');
    assert.equal(taskStatus([]), 'interrupted');
  });

  test('a task that handed over to a new one (new_task) counts as completed, not interrupted', () => {
    const log = TaskLog.create(ws.root, 'c', () => 1);
    log.append({ type: 'task_started', taskId: 'c', task: 'first of a chain', cwd: '/', provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
    log.append({ type: 'new_task_requested', context: 'carry on with step 2' });
    assert.equal(taskStatus(log.events), 'completed');
  });
});
