// The history's list of stored tasks: read once in the background, then again only where a log changed.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { TaskLog, listStoredTasks } from '../../../src/core/log/task-log.js';
import { TaskSummaries } from '../../../src/panel/task-summaries.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

describe('TaskSummaries', () => {
  let ws: TempWorkspace;
  let clock: number;
  beforeEach(() => {
    ws = createTempWorkspace();
    clock = 1;
  });
  afterEach(() => ws.dispose());

  function storeTask(taskId: string, task: string): TaskLog {
    const log = TaskLog.create(ws.root, taskId, () => clock++);
    log.append({ type: 'task_started', taskId, task, cwd: '/w', provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
    return log;
  }
  const listed = (summaries: TaskSummaries) => summaries.current().map((t) => [t.taskId, t.task, t.status]);

  test('has no list until load() has read the logs; then lists them as listStoredTasks does, newest first', async () => {
    storeTask('a', 'first').append({ type: 'task_completed', result: 'ok' });
    storeTask('b', 'second');
    const summaries = new TaskSummaries(ws.root);
    assert.equal(summaries.isLoaded, false);
    const loading = summaries.load();
    assert.equal(summaries.load(), loading, 'one reading, shared');
    await loading;
    assert.equal(summaries.isLoaded, true);
    assert.deepEqual(listed(summaries), [
      ['b', 'second', 'interrupted'],
      ['a', 'first', 'completed'],
    ]);
    assert.deepEqual(summaries.current(), listStoredTasks(ws.root));
  });

  test('an empty storage folder loads to an empty list', async () => {
    const summaries = new TaskSummaries(join(ws.root, 'never-created'));
    await summaries.load();
    assert.deepEqual(summaries.current(), []);
  });

  test('after the first reading only the logs that changed are read again; new and deleted tasks are noticed', async () => {
    const running = storeTask('a', 'first');
    storeTask('b', 'second');
    // A whole second, so that setting it again gives the very same mtime.
    const bFile = join(ws.root, 'tasks', 'b', 'events.jsonl');
    utimesSync(bFile, 1_700_000_000, 1_700_000_000);
    const summaries = new TaskSummaries(ws.root);
    await summaries.load();
    // b's log replaced by other bytes of the same size and mtime: not read again, so the list keeps what it said.
    writeFileSync(bFile, 'x'.repeat(statSync(bFile).size));
    utimesSync(bFile, 1_700_000_000, 1_700_000_000);
    running.append({ type: 'task_completed', result: 'done' });
    storeTask('c', 'third');
    assert.deepEqual(listed(summaries), [
      ['c', 'third', 'interrupted'],
      ['a', 'first', 'completed'],
      ['b', 'second', 'interrupted'],
    ]);
    rmSync(join(ws.root, 'tasks', 'c'), { recursive: true });
    assert.deepEqual(
      summaries.current().map((t) => t.taskId),
      ['a', 'b'],
    );
  });

  test('a folder where the log belongs is left out with one warning until it changes; a damaged line is left out of its log, with one warning', async () => {
    storeTask('good', 'fine');
    const damaged = storeTask('damaged', 'partly readable');
    damaged.append({ type: 'user_message', text: 'kept' });
    writeFileSync(join(ws.root, 'tasks', 'damaged', 'events.jsonl'), `${readFileSync(damaged.file, 'utf8').replace('\n', '\nnot json\n')}`);
    mkdirSync(join(ws.root, 'tasks', 'odd', 'events.jsonl'), { recursive: true });
    const warnings: string[] = [];
    const summaries = new TaskSummaries(ws.root, (message) => warnings.push(message));
    await summaries.load();
    assert.deepEqual(
      summaries.current().map((t) => t.taskId),
      ['damaged', 'good'],
    );
    summaries.current();
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings.find((w) => w.includes('damaged'))!, /^Task damaged in the history: Line 2 of the log could not be read and is left out/);
    assert.match(warnings.find((w) => w.includes('odd'))!, /Skipped task odd in the history: .*is not a regular file/);
    // What the damaged log still says is all there: its task and the message after the damaged line.
    assert.equal(summaries.facts('damaged')?.facts.messageCount, 2);
    assert.deepEqual(summaries.facts('damaged')?.facts.problems.length, 1);
    // The folder replaced by a log: read again and listed.
    rmSync(join(ws.root, 'tasks', 'odd'), { recursive: true });
    storeTask('odd', 'now a log');
    assert.deepEqual(
      summaries.current().map((t) => [t.taskId, t.task]),
      [
        ['odd', 'now a log'],
        ['damaged', 'partly readable'],
        ['good', 'fine'],
      ],
    );
    assert.equal(warnings.length, 2);
  });
});
