import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { TaskLog, taskDir } from '../../../src/core/log/task-log.js';
import { runToolCall, type ToolCallEnvironment } from '../../../src/core/task/tool-call-runner.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import type { ToolOutcome } from '../../../src/core/tool-kit/tool-spec.js';
import { writeToFileTool } from '../../../src/core/tools/write-to-file.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const diff = (search: string, replace: string) => `------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE`;
const errorOf = (outcome: ToolOutcome) => (outcome.kind === 'error' ? outcome.error : `not an error: ${JSON.stringify(outcome)}`);
const CHANGED =
  /^notes\.txt was changed on disk since you last read or wrote it \(by the user or another program\), so your edit was not applied and the file keeps those changes\. Read it again with read_file/;

describe('edits of files that changed since the model saw them', () => {
  let ws: TempWorkspace;
  let harness: ToolHarness;
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
    harness.policy = APPROVE_ALL_POLICY;
  });
  afterEach(() => ws.dispose());

  test('write_to_file does not overwrite an existing file the model never read; after a read it does', async () => {
    ws.write('notes.txt', 'the user wrote this\n');
    const refused = await harness.run(writeToFileTool, { path: 'notes.txt', content: 'replaced\n' });
    assert.equal(refused.kind === 'error' && refused.mistake, true);
    assert.match(
      errorOf(refused),
      /^notes\.txt already exists and you have not read it in this task, so it was not overwritten\. Read it with read_file first/,
    );
    assert.equal(ws.read('notes.txt'), 'the user wrote this\n');
    await harness.run(readFileTool, { path: 'notes.txt' });
    assert.equal((await harness.run(writeToFileTool, { path: 'notes.txt', content: 'replaced\n' })).kind, 'result');
    assert.equal(ws.read('notes.txt'), 'replaced\n');
  });

  test('write_to_file may fill an existing empty file without a read', async () => {
    ws.write('placeholder.txt', '');
    assert.equal((await harness.run(writeToFileTool, { path: 'placeholder.txt', content: 'filled\n' })).kind, 'result');
    assert.equal(ws.read('placeholder.txt'), 'filled\n');
  });

  test('replace_in_file on a never-read file goes ahead: its SEARCH text is checked against the file as it is', async () => {
    ws.write('notes.txt', 'a\nb\n');
    assert.equal((await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('b', 'B') })).kind, 'result');
    assert.equal(ws.read('notes.txt'), 'a\nB\n');
  });

  for (const [name, tool, params] of [
    ['replace_in_file', replaceInFileTool, { diff: diff('two', 'TWO') }],
    ['write_to_file', writeToFileTool, { content: 'one\nTWO\n' }],
  ] as const) {
    test(`${name} refuses a file changed on disk after the read, keeping the change; a new read lets it through`, async () => {
      ws.write('notes.txt', 'one\ntwo\n');
      await harness.run(readFileTool, { path: 'notes.txt' });
      ws.write('notes.txt', 'one\ntwo\nthree (added by the user)\n');
      const refused = await harness.run(tool, { path: 'notes.txt', ...params });
      assert.match(errorOf(refused), CHANGED);
      assert.equal(refused.kind === 'error' && refused.mistake, false);
      assert.equal(ws.read('notes.txt'), 'one\ntwo\nthree (added by the user)\n');
      assert.equal(harness.asked.length, 0);
      await harness.run(readFileTool, { path: 'notes.txt' });
      assert.equal((await harness.run(tool, { path: 'notes.txt', ...params })).kind, 'result');
    });
  }

  test("Smith's own writes update the record; a change after them is caught too", async () => {
    assert.equal((await harness.run(writeToFileTool, { path: 'notes.txt', content: 'v1\n' })).kind, 'result');
    assert.equal((await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('v1', 'v2') })).kind, 'result');
    assert.equal((await harness.run(writeToFileTool, { path: 'notes.txt', content: 'v3\n' })).kind, 'result');
    assert.equal(ws.read('notes.txt'), 'v3\n');
    ws.write('notes.txt', 'v3\nuser line\n');
    assert.match(errorOf(await harness.run(writeToFileTool, { path: 'notes.txt', content: 'v4\n' })), CHANGED);
    assert.equal(ws.read('notes.txt'), 'v3\nuser line\n');
  });

  test('a new modification time with the same content is not a change', async () => {
    const path = ws.write('notes.txt', 'same\n');
    await harness.run(readFileTool, { path: 'notes.txt' });
    utimesSync(path, new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    assert.equal((await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('same', 'new') })).kind, 'result');
  });

  test('a file changed while the approval was pending is not written', async () => {
    harness.policy = { ...APPROVE_ALL_POLICY, editFiles: false };
    ws.write('notes.txt', 'one\n');
    await harness.run(readFileTool, { path: 'notes.txt' });
    harness.answers = [{ approved: true }];
    harness.whileAsking = () => ws.write('notes.txt', 'one\nsaved by the user meanwhile\n');
    const outcome = await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('one', 'ONE') });
    assert.match(
      errorOf(outcome),
      /^notes\.txt was changed on disk while your edit waited for approval, so nothing was written\. Read it again with read_file/,
    );
    assert.equal(ws.read('notes.txt'), 'one\nsaved by the user meanwhile\n');

    harness.answers = [{ approved: true }];
    harness.whileAsking = () => ws.write('fresh.txt', 'created meanwhile\n');
    const created = await harness.run(writeToFileTool, { path: 'fresh.txt', content: 'mine\n' });
    assert.match(errorOf(created), /^fresh\.txt was created by someone else while your edit waited for approval/);
    assert.equal(ws.read('fresh.txt'), 'created meanwhile\n');
  });

  test("the user's own changes to the proposal are not an outside change", async () => {
    harness.policy = { ...APPROVE_ALL_POLICY, editFiles: false };
    ws.write('notes.txt', 'alpha\nbeta\n');
    await harness.run(readFileTool, { path: 'notes.txt' });
    harness.answers = [{ approved: true, editedContent: "alpha\nBETA (the user's version)\n" }];
    const saved = await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('beta', 'BETA') });
    assert.match(saved.kind === 'result' ? saved.output : '', /The user changed your proposal before saving/);
    harness.answers = [{ approved: true }];
    const next = await harness.run(replaceInFileTool, { path: 'notes.txt', diff: diff('alpha', 'ALPHA') });
    assert.equal(next.kind, 'result', errorOf(next));
    assert.equal(ws.read('notes.txt'), "ALPHA\nBETA (the user's version)\n");
  });
});

describe('the record of what the model saw lives in the task log', () => {
  let ws: TempWorkspace;
  let storage: string;
  beforeEach(() => {
    ws = createTempWorkspace();
    storage = mkdtempSync(join(tmpdir(), 'smith-file-stamps-'));
  });
  afterEach(() => {
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  async function call(log: TaskLog, name: string, params: Record<string, string>): Promise<ToolOutcome> {
    const env: ToolCallEnvironment = {
      log,
      tools: new ToolRegistry([readFileTool, writeToFileTool, replaceInFileTool]),
      host: new ToolHarness(ws.root).host,
      cwd: ws.root,
      policy: APPROVE_ALL_POLICY,
      ignore: NOTHING_IGNORED,
      signal: new AbortController().signal,
      onProgress: () => {},
    };
    return runToolCall({ kind: 'tool', name, params, partial: false }, env, 0);
  }

  test('a reopened (resumed) task still knows what it read, and still sees a change made meanwhile', async () => {
    ws.write('kept.txt', 'kept\n');
    ws.write('notes.txt', 'one\n');
    const first = TaskLog.create(storage, 't1');
    await call(first, 'read_file', { path: 'kept.txt' });
    await call(first, 'read_file', { path: 'notes.txt' });
    const logged = readFileSync(join(taskDir(storage, 't1'), 'events.jsonl'), 'utf8');
    assert.match(
      logged,
      /"details":\{"file":\{"path":"[^"]*kept\.txt","size":5,"mtimeMs":[\d.]+,"sha256":"[0-9a-f]{64}"\},"read":\{"path":"kept\.txt","firstLine":1,"lastLine":1,"totalLines":1,"truncated":false\}\}/,
    );

    ws.write('notes.txt', 'one\nchanged while the task was stopped\n');
    const resumed = TaskLog.open(storage, 't1');
    assert.equal((await call(resumed, 'write_to_file', { path: 'kept.txt', content: 'rewritten\n' })).kind, 'result');
    assert.equal(ws.read('kept.txt'), 'rewritten\n');
    assert.match(errorOf(await call(resumed, 'replace_in_file', { path: 'notes.txt', diff: diff('one', 'ONE') })), CHANGED);
    assert.equal(ws.read('notes.txt'), 'one\nchanged while the task was stopped\n');
    const refusal = resumed.events.at(-1);
    assert.equal(refusal?.type, 'tool_error');
  });
});
