// `smith checkpoints` and `smith rewind` on a task run by the CLI against the scripted server.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const reply = (text: string) => ({ text });
const write = (path: string, content: string) => reply(`<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`);
const complete = (result: string) => reply(`<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`);

describe('smith CLI: checkpoints and rewind', () => {
  const fx = useAgentFixture();

  async function runTask(): Promise<string> {
    fx.server.enqueue(write('a.txt', 'first'), write('b.txt', 'second'), complete('Wrote both.'));
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Write two files'] });
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as { taskId: string }).taskId;
  }
  const storage = () => ['--storage', fx.storage];

  test('lists checkpoints as JSON and as a table', async () => {
    const taskId = await runTask();
    const json = await runCli({ args: ['checkpoints', taskId, '--output', 'json', ...storage()] });
    assert.equal(json.code, 0, json.stderr);
    const list = JSON.parse(json.stdout) as Array<{ id: string; step: number; time: string; filesChanged: string[] }>;
    assert.deepEqual(
      list.map((c) => [c.id, c.filesChanged]),
      [
        ['0', []],
        ['1', ['a.txt']],
        ['2', ['b.txt']],
      ],
    );
    assert.ok(list.every((c) => Number.isInteger(c.step) && !Number.isNaN(Date.parse(c.time))));
    const table = await runCli({ args: ['checkpoints', taskId, ...storage()] });
    assert.match(table.stdout, /^ {2}0 {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}the workspace when the task began\n {2}1 .*a\.txt\n {2}2 .*b\.txt\n$/);
  });

  test('rewind restores files and conversation; --files-only and --conversation-only do one of them', async () => {
    const taskId = await runTask();
    const filesOnly = await runCli({ args: ['rewind', taskId, '1', '--files-only', ...storage()] });
    assert.equal(filesOnly.code, 0, filesOnly.stderr);
    assert.match(filesOnly.stdout, /Restored the files of checkpoint 1: b\.txt \(removed\)\./);
    assert.equal(fx.ws.read('a.txt'), 'first\n');
    assert.throws(() => fx.ws.read('b.txt'));
    const conversationOnly = await runCli({ args: ['rewind', taskId, '1', '--conversation-only', ...storage()] });
    assert.equal(conversationOnly.code, 0, conversationOnly.stderr);
    assert.match(conversationOnly.stdout, /The conversation now ends at checkpoint 1/);
    assert.match(conversationOnly.stdout, new RegExp(`smith --resume ${taskId}`));
    const listed = JSON.parse((await runCli({ args: ['checkpoints', taskId, '--output', 'json', ...storage()] })).stdout) as Array<{ id: string }>;
    assert.deepEqual(
      listed.map((c) => c.id),
      ['0', '1'],
      'checkpoint 2 was in the rewound part',
    );
    const both = await runCli({ args: ['rewind', taskId, '0', ...storage()] });
    assert.equal(both.code, 0, both.stderr);
    assert.throws(() => fx.ws.read('a.txt'));
  });

  test("a rewind over the user's later changes is refused (exit 1) unless --force", async () => {
    const taskId = await runTask();
    fx.ws.write('b.txt', 'the user changed this\n');
    const refused = await runCli({ args: ['rewind', taskId, '1', ...storage()] });
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /Nothing was restored: these files changed after the task's last checkpoint and would be overwritten:\n {2}b\.txt\nUse --force/,
    );
    assert.equal(fx.ws.read('b.txt'), 'the user changed this\n');
    const forced = await runCli({ args: ['rewind', taskId, '1', '--force', ...storage()] });
    assert.equal(forced.code, 0, forced.stderr);
    assert.throws(() => fx.ws.read('b.txt'));
  });

  test('bad calls: usage errors exit 2, an unknown checkpoint exits 1 with the ids', async () => {
    const taskId = await runTask();
    const missing = await runCli({ args: ['rewind', taskId, ...storage()] });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /smith rewind TASK_ID CHECKPOINT_ID/);
    const both = await runCli({ args: ['rewind', taskId, '1', '--files-only', '--conversation-only', ...storage()] });
    assert.equal(both.code, 2);
    const unknown = await runCli({ args: ['rewind', taskId, '7', ...storage()] });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no checkpoint "7" in this task; it has 0, 1, 2/);
    const noTask = await runCli({ args: ['checkpoints', 'no-such-task', ...storage()] });
    assert.equal(noTask.code, 1);
    assert.match(noTask.stderr, /No task with id "no-such-task"/);
  });

  test('--no-checkpoints takes none', async () => {
    fx.server.enqueue(write('a.txt', 'first'), complete('Done.'));
    const run = await runCli({ args: [...fx.cliArgs(), '--yes', '--no-checkpoints', '--output', 'json', 'Write a file'] });
    assert.equal(run.code, 0, run.stderr);
    const { taskId } = JSON.parse(run.stdout) as { taskId: string };
    const table = await runCli({ args: ['checkpoints', taskId, ...storage()] });
    assert.match(table.stdout, /This task has no checkpoints/);
  });

  test('a task with --add-dir: the other folder is checkpointed too, and rewind puts it back', async () => {
    const other = mkdtempSync(join(tmpdir(), 'smith-cli-roots-'));
    try {
      const api = join(realpathSync(other), 'api');
      mkdirSync(api);
      fx.server.enqueue(write('api/made.ts', 'made'), write('a.txt', 'first'), complete('Wrote both.'));
      const run = await runCli({ args: [...fx.cliArgs(), '--add-dir', api, '--yes', '--output', 'json', 'Write in both folders'] });
      assert.equal(run.code, 0, run.stderr);
      const taskId = (JSON.parse(run.stdout) as { taskId: string }).taskId;
      const json = await runCli({ args: ['checkpoints', taskId, '--output', 'json', ...storage()] });
      assert.deepEqual(
        (JSON.parse(json.stdout) as Array<{ id: string; filesChanged: string[] }>).map((c) => [c.id, c.filesChanged]),
        [
          ['0', []],
          ['1', ['api/made.ts']],
          ['2', ['a.txt']],
        ],
      );
      const rewind = await runCli({ args: ['rewind', taskId, '0', '--files-only', ...storage()] });
      assert.equal(rewind.code, 0, rewind.stderr);
      assert.equal(existsSync(join(api, 'made.ts')), false);
      assert.throws(() => fx.ws.read('a.txt'));
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
