// The versions of files a task read, kept in the checkpoint store for merging later edits: found
// again by a reopened store, kept while the task is, freed with it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { collectCheckpointGarbage } from '../../../src/core/checkpoints/checkpoint-gc.js';
import { CheckpointStore } from '../../../src/core/checkpoints/checkpoint-store.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { TaskLog, taskDir } from '../../../src/core/log/task-log.js';
import { runToolCall } from '../../../src/core/task/tool-call-runner.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

describe('file versions in the checkpoint store', () => {
  let ws: TempWorkspace;
  let storage: string;
  beforeEach(() => {
    ws = createTempWorkspace();
    storage = mkdtempSync(join(tmpdir(), 'smith-versions-'));
  });
  afterEach(() => {
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  const openStore = () => new CheckpointStore({ storageDir: storage, workspaceRoot: ws.root, ignore: NOTHING_IGNORED });
  async function call(log: TaskLog, store: CheckpointStore, name: string, params: Record<string, string>) {
    return runToolCall(
      { kind: 'tool', name, params, partial: false },
      {
        log,
        tools: new ToolRegistry([readFileTool, replaceInFileTool]),
        host: new ToolHarness(ws.root).host,
        cwd: ws.root,
        policy: APPROVE_ALL_POLICY,
        ignore: NOTHING_IGNORED,
        signal: new AbortController().signal,
        fileVersions: store.versions,
        onProgress: () => {},
      },
      0,
    );
  }
  function startedTask(id: string): TaskLog {
    const log = TaskLog.create(storage, id);
    log.append({ type: 'task_started', taskId: id, task: 'edit', cwd: ws.root, provider: 'openai', model: 'm', mode: 'act', modeSlug: 'code' });
    return log;
  }

  test("the version a task read is kept as long as the task is, merges after a reopen, and goes with the task's deletion", async () => {
    ws.write('notes.txt', 'read by the model\nline two\n');
    const log = startedTask('t1');
    await call(log, openStore(), 'read_file', { path: 'notes.txt' });
    const readHash = log.events.flatMap((e) => (e.type === 'tool_result' && e.details?.file ? [e.details.file.sha256] : []))[0]!;
    assert.ok(openStore().versions.bytesOf(readHash), 'kept on disk, found by another store over the same folder');

    // Collected with no grace: the version stays because the task's log names it.
    const store = openStore();
    collectCheckpointGarbage(store, storage, ws.root, 0);
    assert.equal(Buffer.from(store.versions.bytesOf(readHash) ?? []).toString(), 'read by the model\nline two\n');

    ws.write('notes.txt', 'read by the model\nline two\nthe user added this\n');
    const resumed = TaskLog.open(storage, 't1');
    const outcome = await call(resumed, openStore(), 'replace_in_file', {
      path: 'notes.txt',
      diff: '------- SEARCH\nread by the model\n=======\nedited by the model\n+++++++ REPLACE',
    });
    assert.equal(outcome.kind, 'result');
    assert.equal(ws.read('notes.txt'), 'edited by the model\nline two\nthe user added this\n');

    rmSync(taskDir(storage, 't1'), { recursive: true });
    const after = openStore();
    collectCheckpointGarbage(after, storage, ws.root, 0);
    assert.equal(after.versions.bytesOf(readHash), undefined);
  });

  test('a version pruned from the store is not merged: the edit is refused as before', async () => {
    ws.write('notes.txt', 'one\n');
    const log = startedTask('t2');
    await call(log, openStore(), 'read_file', { path: 'notes.txt' });
    rmSync(join(storage, 'checkpoints'), { recursive: true });
    ws.write('notes.txt', 'one\ntwo\n');
    const outcome = await call(log, openStore(), 'replace_in_file', { path: 'notes.txt', diff: '------- SEARCH\none\n=======\nONE\n+++++++ REPLACE' });
    assert.equal(outcome.kind, 'error');
    assert.match(
      outcome.kind === 'error' ? outcome.error : '',
      /^notes\.txt was changed on disk since you last read or wrote it .*, so your edit was not applied/,
    );
    assert.equal(ws.read('notes.txt'), 'one\ntwo\n');
  });
});
