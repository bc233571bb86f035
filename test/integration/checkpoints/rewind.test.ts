// Rewinding a real task: files, conversation or both; refusing to overwrite the user's later
// changes without force; editing an earlier message and running again; freeing deleted tasks' checkpoints.
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkpointBytesOfTask, collectCheckpointGarbage } from '../../../src/core/checkpoints/checkpoint-gc.js';
import { listCheckpoints, rewindTask, rewindToMessage } from '../../../src/core/checkpoints/rewind-task.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { Task } from '../../../src/core/task/task.js';
import { emptyUiProjection, foldUiEvents, uiProjection } from '../../../src/core/task/ui-projection.js';
import { visibleEvents } from '../../../src/core/log/visible-events.js';
import { allText, useTaskFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe('rewind', () => {
  const fixture = useTaskFixture();

  async function twoEdits() {
    fixture.ws.write('notes.md', 'v0\n');
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, new ToolHarness(fixture.ws.root).host);
    fixture.server.enqueue(
      { text: '<read_file>\n<path>notes.md</path>\n</read_file>' },
      write('notes.md', 'v1'),
      write('extra.md', 'extra'),
      write('notes.md', 'v2'),
      done('Done.'),
    );
    const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Edit the notes');
    assert.equal((await task.run()).status, 'completed');
    return { task, environment, store: environment.options.checkpoints };
  }

  test('files and conversation go back to a checkpoint; the undone part stays in the log', async () => {
    const { task, store } = await twoEdits();
    assert.deepEqual(
      listCheckpoints(task.log.events).map((c) => [c.id, c.changed]),
      [
        ['0', []],
        ['1', ['notes.md']],
        ['2', ['extra.md']],
        ['3', ['notes.md']],
      ],
    );
    const outcome = await rewindTask(task.log, store, { checkpointId: '1', scope: 'both' });
    assert.deepEqual(outcome, { kind: 'rewound', restored: ['notes.md'], deleted: ['extra.md'], failures: [], untouched: [] });
    assert.equal(fixture.ws.read('notes.md'), 'v1\n');
    const visible = visibleEvents(task.log.events);
    assert.equal(visible.filter((e) => e.type === 'tool_result' && e.tool === 'write_to_file').length, 1, 'only the first edit is still in the conversation');
    assert.equal(
      visible.some((e) => e.type === 'task_completed'),
      false,
    );
    assert.deepEqual(
      listCheckpoints(task.log.events).map((c) => c.id),
      ['0', '1'],
    );
    assert.ok(
      task.log.events.some((e) => e.type === 'task_completed'),
      'the log keeps everything',
    );
    // The chat shows the conversation as rewound, folded one event at a time as the panel does.
    const chat = uiProjection(task.log.events);
    assert.equal(chat.filter((m) => m.kind === 'tool' && m.tool === 'write_to_file').length, 1);
    const last = chat.at(-1);
    assert.equal(last?.kind === 'notice' ? last.text : undefined, 'Files and conversation went back to checkpoint 1.');
    const folded = emptyUiProjection();
    foldUiEvents(folded, task.log.events.slice(0, -1));
    assert.equal(foldUiEvents(folded, task.log.events), 0, 'the whole chat changed');
    assert.deepEqual(folded.messages, chat);
    const rewound = task.log.events.at(-1);
    assert.equal(rewound?.type, 'conversation_rewound');
    assert.ok(rewound?.type === 'conversation_rewound' && rewound.beforeRoot, 'the state before the restore is kept, so it can be undone');
  });

  test('files only leaves the conversation; conversation only leaves the files', async () => {
    const { task, store } = await twoEdits();
    await rewindTask(task.log, store, { checkpointId: '0', scope: 'files' });
    assert.equal(fixture.ws.read('notes.md'), 'v0\n');
    assert.equal(
      visibleEvents(task.log.events).some((e) => e.type === 'task_completed'),
      true,
    );
    await rewindTask(task.log, store, { checkpointId: '2', scope: 'conversation' });
    assert.equal(fixture.ws.read('notes.md'), 'v0\n');
    assert.equal(
      visibleEvents(task.log.events).some((e) => e.type === 'task_completed'),
      false,
    );
  });

  test("a restore over the user's later changes is refused with the list, and done with force", async () => {
    const { task, store } = await twoEdits();
    fixture.ws.write('notes.md', 'the user wrote this after the task\n');
    const refused = await rewindTask(task.log, store, { checkpointId: '1', scope: 'files' });
    assert.deepEqual(refused, { kind: 'conflicts', files: ['notes.md'] });
    assert.equal(fixture.ws.read('notes.md'), 'the user wrote this after the task\n');
    assert.equal(task.log.events.at(-1)?.type, 'task_completed', 'nothing was logged');
    const forced = await rewindTask(task.log, store, { checkpointId: '1', scope: 'files', force: true });
    assert.equal(forced.kind, 'rewound');
    assert.equal(fixture.ws.read('notes.md'), 'v1\n');
    // After the restore, the restored state is what the task last left: no conflict going forward.
    const next = await rewindTask(task.log, store, { checkpointId: '3', scope: 'files' });
    assert.equal(next.kind, 'rewound');
    assert.equal(fixture.ws.read('notes.md'), 'v2\n');
  });

  test('an unknown checkpoint, or files with checkpoints off, is a clear error', async () => {
    const { task, store } = await twoEdits();
    await assert.rejects(rewindTask(task.log, store, { checkpointId: '9', scope: 'both' }), /no checkpoint "9" in this task; it has 0, 1, 2, 3/);
    await assert.rejects(rewindTask(task.log, undefined, { checkpointId: '1', scope: 'files' }), /checkpoints are off/);
  });

  test('editing a later message: files and conversation go back to before it, and the edited text runs', async () => {
    const { task, store, environment } = await twoEdits();
    task.addUserMessage('Now write a summary');
    const messageSeq = task.log.events.at(-1)?.seq ?? -1;
    fixture.server.enqueue(write('summary.md', 'long summary'), done('Summarised.'));
    await task.run();
    assert.equal(fixture.ws.read('summary.md'), 'long summary\n');

    const outcome = await rewindToMessage(task.log, store, messageSeq, { files: true });
    assert.deepEqual(outcome, { kind: 'rewound', restored: [], deleted: ['summary.md'], failures: [], untouched: [] });
    const resumed = Task.resume({ ...environment.options, retry: { maxRetries: 0 } }, task.id);
    resumed.addUserMessage('Now write a short summary');
    fixture.server.enqueue(write('summary.md', 'short'), done('Summarised briefly.'));
    assert.equal((await resumed.run()).status, 'completed');
    assert.equal(fixture.ws.read('summary.md'), 'short\n');
    const users = visibleEvents(resumed.log.events)
      .filter((e) => e.type === 'user_message')
      .map((e) => (e.type === 'user_message' ? e.text : ''));
    assert.deepEqual(users, ['Now write a short summary']);
    // What the model saw after the rewind: the edited message, nothing of the undone turn.
    const seen = allText(fixture.server.requestAt(fixture.server.requests.length - 2));
    assert.match(seen, /Now write a short summary/);
    assert.doesNotMatch(seen, /Now write a summary|long summary/);
  });

  test('editing the first message replaces the task text and undoes everything after it', async () => {
    const { task, store } = await twoEdits();
    await rewindToMessage(task.log, store, 0, { files: true, firstMessageText: 'Edit the notes, briefly' });
    assert.equal(fixture.ws.read('notes.md'), 'v0\n');
    const visible = visibleEvents(task.log.events);
    assert.deepEqual(
      visible.filter((e) => e.type !== 'checkpoint_created' && e.type !== 'conversation_rewound').map((e) => e.type),
      ['task_started'],
    );
    assert.equal(visible[0]?.type === 'task_started' ? visible[0].task : '', 'Edit the notes, briefly');
  });
});

describe('checkpoint garbage collection', () => {
  const fixture = useTaskFixture();

  test('the checkpoints of a deleted task are freed; those of the remaining tasks stay restorable', async () => {
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, new ToolHarness(fixture.ws.root).host);
    const checkpoints = environment.options.checkpoints;
    const store = checkpoints?.primary;
    assert.ok(checkpoints && store);
    const run = async (file: string, content: string) => {
      fixture.server.enqueue(write(file, content), done('ok'));
      const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, `Write ${file}`);
      await task.run();
      return task;
    };
    const kept = await run('kept.txt', 'kept '.repeat(2000));
    const deleted = await run('deleted.txt', 'deleted '.repeat(2000));
    const deletedBytes = checkpointBytesOfTask(store, deleted.log.events);
    assert.ok(deletedBytes > 0 && checkpointBytesOfTask(store, kept.log.events) > 0);
    rmSync(join(fixture.storage, 'tasks', deleted.id), { recursive: true });
    rmSync(join(fixture.ws.root, 'deleted.txt'));
    await store.snapshot(); // the store's own latest snapshot is kept too; it no longer has the file
    store.flushStatCache();
    const freed = collectCheckpointGarbage(store, fixture.storage, fixture.ws.root, 0);
    assert.ok(freed > 0, "the deleted task's snapshots were freed");
    const deletedRoots = deleted.log.events.flatMap((e) => (e.type === 'checkpoint_created' ? [e.root] : []));
    assert.ok(deletedRoots.some((root) => !store.objects.has(root)));
    const outcome = await rewindTask(kept.log, checkpoints, { checkpointId: '0', scope: 'files', force: true });
    assert.equal(outcome.kind, 'rewound');
    assert.equal(existsSync(join(fixture.ws.root, 'kept.txt')), false);
  });

  test('an unreadable log keeps everything', async () => {
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, new ToolHarness(fixture.ws.root).host);
    const store = environment.options.checkpoints?.primary;
    assert.ok(store);
    fixture.server.enqueue(write('a.txt', 'a'), done('ok'));
    const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Write a');
    await task.run();
    writeFileSync(join(fixture.storage, 'tasks', task.id, 'events.jsonl'), '{"not json\n{"type":"x"}\n');
    assert.equal(collectCheckpointGarbage(store, fixture.storage, fixture.ws.root, 0), 0);
  });
});
