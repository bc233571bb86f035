// Checkpoints of a multi-root workspace: every folder is snapshotted in its own store, a restore
// puts each folder back (and refuses to overwrite later changes in any of them), Compare shows
// the other folders' files under their names, and deleting a task frees every folder's store.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { collectCheckpointGarbage, inspectCheckpointStore } from '../../../src/core/checkpoints/checkpoint-gc.js';
import { listCheckpoints, rewindTask } from '../../../src/core/checkpoints/rewind-task.js';
import { folderSnapshotsOfTask } from '../../../src/core/log/task-snapshots.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { Task } from '../../../src/core/task/task.js';
import { listStoredTasks } from '../../../src/core/log/task-log.js';
import { compareWithCheckpoint } from '../../../src/panel/checkpoint-actions.js';
import { checkpointBytesOf } from '../../../src/panel/checkpoint-storage.js';
import type { ComparedFile } from '../../../src/panel/panel-ports.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const read = (path: string) => ({ text: `<read_file>\n<path>${path}</path>\n</read_file>` });
const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe('checkpoints of a multi-root workspace', () => {
  const fixture = useTaskFixture();
  let outside: string;
  let api: string;
  beforeEach(() => {
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'smith-roots-')));
    api = join(outside, 'api');
    mkdirSync(join(api, 'src'), { recursive: true });
    writeFileSync(join(api, 'src', 'server.ts'), 'v0\n');
  });
  afterEach(() => rmSync(outside, { recursive: true, force: true }));

  async function editBothFolders() {
    fixture.ws.write('main.txt', 'm0\n');
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, new ToolHarness(fixture.ws.root).host, { additionalRoots: [{ path: api }], maxIterations: 10 });
    fixture.server.enqueue(
      read('api/src/server.ts'),
      write('api/src/server.ts', 'v1'),
      read('main.txt'),
      write('main.txt', 'm1'),
      write('api/new.ts', 'new'),
      done('Done.'),
    );
    const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Edit both folders');
    assert.equal((await task.run()).status, 'completed');
    return { task, checkpoints: environment.options.checkpoints };
  }

  test("every folder's changes are checkpointed, named as the tools name them, and restored", async () => {
    const { task, checkpoints } = await editBothFolders();
    const listed = listCheckpoints(task.log.events);
    assert.deepEqual(
      listed.map((c) => [c.id, c.changed]),
      [
        ['0', []],
        ['1', ['api/src/server.ts']],
        ['2', ['main.txt']],
        ['3', ['api/new.ts']],
      ],
    );
    assert.deepEqual(
      listed[0]?.folders?.map((f) => [f.name, f.path]),
      [[basename(api), api]],
    );
    assert.equal(readFileSync(join(api, 'src', 'server.ts'), 'utf8'), 'v1\n');

    const outcome = await rewindTask(task.log, checkpoints, { checkpointId: '0', scope: 'files' });
    assert.equal(outcome.kind, 'rewound');
    assert.deepEqual(outcome.kind === 'rewound' ? [[...outcome.restored].sort(), outcome.deleted] : [], [['api/src/server.ts', 'main.txt'], ['api/new.ts']]);
    assert.equal(readFileSync(join(api, 'src', 'server.ts'), 'utf8'), 'v0\n');
    assert.equal(existsSync(join(api, 'new.ts')), false);
    assert.equal(fixture.ws.read('main.txt'), 'm0\n');
    // The restore can itself be undone: the replaced state of each folder is logged.
    const rewound = task.log.events.findLast((e) => e.type === 'conversation_rewound');
    assert.equal(rewound?.type === 'conversation_rewound' ? rewound.beforeFolders?.[0]?.path : undefined, api);
  });

  test('a restore that would overwrite a later change in another folder asks first (nothing is done)', async () => {
    const { task, checkpoints } = await editBothFolders();
    writeFileSync(join(api, 'src', 'server.ts'), 'edited by the user\n');
    const outcome = await rewindTask(task.log, checkpoints, { checkpointId: '0', scope: 'files' });
    assert.deepEqual(outcome, { kind: 'conflicts', files: ['api/src/server.ts'] });
    assert.equal(readFileSync(join(api, 'src', 'server.ts'), 'utf8'), 'edited by the user\n');
    assert.equal(fixture.ws.read('main.txt'), 'm1\n');
  });

  test("Compare lists the other folder's files under its name, with their content at the checkpoint", async () => {
    const { task, checkpoints } = await editBothFolders();
    let shown: readonly ComparedFile[] = [];
    const views = {
      showChanges: async (_title: string, files: readonly ComparedFile[]) => {
        shown = files;
      },
      confirm: async () => false,
      openFile: async () => {},
    };
    const count = await compareWithCheckpoint({ log: task.log, store: checkpoints, cwd: fixture.ws.root }, '0', views);
    assert.equal(count, 3);
    assert.deepEqual(
      shown.map((f) => [f.path, f.absolutePath, f.existsNow]),
      [
        ['api/new.ts', join(api, 'new.ts'), true],
        ['api/src/server.ts', join(api, 'src', 'server.ts'), true],
        ['main.txt', join(fixture.ws.root, 'main.txt'), true],
      ],
    );
    assert.equal(shown[1]?.before(), 'v0\n');
    assert.equal(shown[0]?.before(), undefined);
  });

  test("the history's storage figure counts every folder's store", async () => {
    const { task } = await editBothFolders();
    const [summary] = listStoredTasks(fixture.storage);
    assert.equal(summary?.taskId, task.id);
    assert.deepEqual(Object.keys(summary?.folderSnapshots ?? {}), [api]);
    const primaryOnly = inspectCheckpointStore(fixture.storage, fixture.ws.root)!.storedSize(summary!.snapshots);
    const apiOnly = inspectCheckpointStore(fixture.storage, api)!.storedSize(summary!.folderSnapshots![api]!);
    assert.ok(apiOnly > 0);
    assert.deepEqual(
      checkpointBytesOf(fixture.storage, [summary!]).map(([, bytes]) => bytes),
      [primaryOnly + apiOnly],
    );
  });

  test("another folder's store keeps what a stored task uses, and frees it once the task is deleted", async () => {
    const { task } = await editBothFolders();
    const store = inspectCheckpointStore(fixture.storage, api);
    assert.ok(store);
    const roots = folderSnapshotsOfTask(task.log.events, api);
    assert.ok(roots.length >= 2);
    collectCheckpointGarbage(store, fixture.storage, api, 0);
    assert.ok(
      roots.every((root) => store.objects.has(root)),
      'a stored task keeps its folder snapshots',
    );
    rmSync(join(fixture.storage, 'tasks', task.id), { recursive: true });
    writeFileSync(join(api, 'src', 'server.ts'), 'moved on\n');
    await store.snapshot();
    store.flushStatCache();
    assert.ok(collectCheckpointGarbage(store, fixture.storage, api, 0) > 0);
    assert.ok(
      roots.some((root) => !store.objects.has(root)),
      "the deleted task's folder snapshots were freed",
    );
  });
});
