// Checkpoints taken by a real Task against the scripted model server: one when the task starts,
// one after each step that changed the workspace (an edit, a command), none after a read.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ChildProcessRunner } from '../../../src/core/process/child-process-runner.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import type { CheckpointCreated } from '../../../src/core/log/checkpoint-events.js';
import { Task } from '../../../src/core/task/task.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { gate } from '../../helpers/gate.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { until } from '../../helpers/until.js';

describe('task checkpoints', () => {
  const fixture = useTaskFixture();

  test('a checkpoint at the start and after each step that changed files, each before the task ends', async () => {
    fixture.ws.write('src/app.ts', 'export const version = 1;\n');
    const harness = new ToolHarness(fixture.ws.root);
    harness.processes = new ChildProcessRunner({ killGraceMs: 1000 });
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host);
    fixture.server.enqueue(
      { text: '<read_file>\n<path>src/app.ts</path>\n</read_file>' },
      { text: '<write_to_file>\n<path>src/app.ts</path>\n<content>\nexport const version = 2;\n</content>\n</write_to_file>' },
      { text: '<execute_command>\n<command>echo made > made.txt</command>\n<requires_approval>false</requires_approval>\n</execute_command>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Bump the version');
    const outcome = await task.run();
    assert.equal(outcome.status, 'completed', JSON.stringify(task.log.events.at(-1)));

    const events = task.log.events;
    const checkpoints = events.filter((e): e is CheckpointCreated & { seq: number; ts: number } => e.type === 'checkpoint_created');
    assert.deepEqual(
      checkpoints.map((c) => [c.checkpointId, c.changed]),
      [
        ['0', []],
        ['1', ['src/app.ts']],
        ['2', ['made.txt']],
      ],
    );
    const seqOf = (type: string, tool?: string) => events.find((e) => e.type === type && (!tool || ('tool' in e && e.tool === tool)))?.seq;
    assert.equal(checkpoints[0]?.afterSeq, seqOf('task_started'));
    assert.equal(checkpoints[1]?.afterSeq, seqOf('tool_result', 'write_to_file'));
    assert.equal(checkpoints[2]?.afterSeq, seqOf('tool_result', 'execute_command'));
    const completed = seqOf('task_completed') ?? -1;
    assert.ok(
      checkpoints.every((c) => c.seq < completed),
      'every checkpoint is logged before the task ends',
    );

    // The store holds each checkpoint's files.
    const store = environment.options.checkpoints?.primary;
    assert.ok(store);
    assert.equal(store.contentAt(checkpoints[0]?.root ?? '', 'src/app.ts')?.toString(), 'export const version = 1;\n');
    assert.equal(store.contentAt(checkpoints[1]?.root ?? '', 'src/app.ts')?.toString(), 'export const version = 2;\n');
    assert.equal(store.contentAt(checkpoints[1]?.root ?? '', 'made.txt'), undefined);
    assert.equal(store.contentAt(checkpoints[2]?.root ?? '', 'made.txt')?.toString(), 'made\n');
  });

  test('a resumed task checkpoints only when the workspace changed while it was away', async () => {
    fixture.ws.write('a.txt', 'one\n');
    const harness = new ToolHarness(fixture.ws.root);
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host);
    fixture.server.enqueue({ text: '<attempt_completion>\n<result>Nothing to do.</result>\n</attempt_completion>' });
    const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Look around');
    await task.run();
    const resumed = Task.resume(environment.options, task.id);
    fixture.server.enqueue({ text: '<attempt_completion>\n<result>Still nothing.</result>\n</attempt_completion>' });
    await resumed.run();
    assert.equal(resumed.log.events.filter((e) => e.type === 'checkpoint_created').length, 1, 'nothing changed: no new checkpoint');
    fixture.ws.write('a.txt', 'changed by the user\n');
    const again = Task.resume(environment.options, task.id);
    fixture.server.enqueue({ text: '<attempt_completion>\n<result>Saw it.</result>\n</attempt_completion>' });
    await again.run();
    const last = again.log.events.filter((e) => e.type === 'checkpoint_created').at(-1);
    assert.deepEqual(last?.type === 'checkpoint_created' ? [last.checkpointId, last.changed] : undefined, ['1', ['a.txt']]);
  });

  test('the first snapshot runs beside the first model request; the first edit waits for it', async () => {
    fixture.ws.write('src/app.ts', 'export const version = 1;\n');
    const harness = new ToolHarness(fixture.ws.root);
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host);
    const real = environment.options.checkpoints;
    assert.ok(real);
    // The real store, behind a snapshot that does not start until the test releases it.
    const held = gate();
    let snapshotsAsked = 0;
    let snapshotsDone = 0;
    const checkpoints = Object.assign(Object.create(real) as typeof real, {
      async snapshot(signal?: AbortSignal) {
        snapshotsAsked++;
        await held.promise;
        const result = await real.snapshot(signal);
        snapshotsDone++;
        return result;
      },
    });
    fixture.server.enqueue(
      { text: '<write_to_file>\n<path>src/made.ts</path>\n<content>\nexport const made = true;\n</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const task = Task.create({ ...environment.options, checkpoints, retry: { maxRetries: 0 } }, 'Bump the version');
    const running = task.run();

    // The model has the request while the first snapshot is still held.
    await until(() => fixture.server.requests.length >= 1, 'the first model request');
    assert.equal(snapshotsAsked, 1, 'the first snapshot was started');
    assert.equal(snapshotsDone, 0, 'the first request did not wait for the snapshot');
    assert.ok(!task.log.events.some((e) => e.type === 'checkpoint_created'));

    // The edit is in; it must not run before the snapshot. The snapshot is released once the edit
    // ran (it should not) or it had half a second to.
    await until(() => task.log.events.some((e) => e.type === 'model_response'), 'the first model response');
    const answered = Date.now();
    await until(() => task.log.events.some((e) => e.type === 'tool_result') || Date.now() - answered > 500, 'the edit or half a second');
    assert.ok(!task.log.events.some((e) => e.type === 'tool_requested' || e.type === 'tool_result'), 'the edit waited for the first snapshot');
    assert.equal(existsSync(join(fixture.ws.root, 'src/made.ts')), false);
    held.open();

    const outcome = await running;
    assert.equal(outcome.status, 'completed', JSON.stringify(task.log.events.at(-1)));
    const events = task.log.events;
    const first = events.find((e): e is CheckpointCreated & { seq: number; ts: number } => e.type === 'checkpoint_created');
    const edit = events.find((e) => e.type === 'tool_requested' && e.tool === 'write_to_file');
    assert.ok(first && edit && first.seq < edit.seq, 'checkpoint 0 is logged before the edit is requested');
    assert.equal(real.primary.contentAt(first.root, 'src/app.ts')?.toString(), 'export const version = 1;\n');
    assert.equal(real.primary.contentAt(first.root, 'src/made.ts'), undefined, 'checkpoint 0 is the workspace before the edit');
    assert.equal(fixture.ws.read('src/made.ts'), 'export const made = true;\n');
  });

  test('a read does not wait for the snapshot; the edit after it does', async () => {
    fixture.ws.write('src/app.ts', 'export const version = 1;\n');
    const harness = new ToolHarness(fixture.ws.root);
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host);
    const real = environment.options.checkpoints;
    assert.ok(real);
    const held = gate();
    const checkpoints = Object.assign(Object.create(real) as typeof real, {
      async snapshot(signal?: AbortSignal) {
        await held.promise;
        return real.snapshot(signal);
      },
    });
    fixture.server.enqueue(
      { text: '<read_file>\n<path>src/app.ts</path>\n</read_file>' },
      { text: '<write_to_file>\n<path>src/app.ts</path>\n<content>\nexport const version = 2;\n</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' },
    );
    const task = Task.create({ ...environment.options, checkpoints, retry: { maxRetries: 0 } }, 'Bump the version');
    const running = task.run();
    // The read ran and the second request went out while the first snapshot is held.
    await until(() => fixture.server.requests.length >= 2, 'the second model request');
    assert.ok(task.log.events.some((e) => e.type === 'tool_result' && e.tool === 'read_file'));
    assert.ok(!task.log.events.some((e) => e.type === 'checkpoint_created'));
    held.open();
    const outcome = await running;
    assert.equal(outcome.status, 'completed', JSON.stringify(task.log.events.at(-1)));
    const first = task.log.events.find((e): e is CheckpointCreated & { seq: number; ts: number } => e.type === 'checkpoint_created');
    const edit = task.log.events.find((e) => e.type === 'tool_requested' && e.tool === 'write_to_file');
    assert.ok(first && edit && first.seq < edit.seq);
    assert.equal(real.primary.contentAt(first.root, 'src/app.ts')?.toString(), 'export const version = 1;\n');
  });

  test('checkpoints can be turned off', async () => {
    const harness = new ToolHarness(fixture.ws.root);
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: fixture.server.openAiBaseUrl });
    const environment = await fixture.environment(provider, harness.host, { checkpoints: { enabled: false } });
    fixture.server.enqueue(
      { text: '<write_to_file>\n<path>x.txt</path>\n<content>x</content>\n</write_to_file>' },
      { text: '<attempt_completion>\n<result>ok</result>\n</attempt_completion>' },
    );
    const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Write x');
    await task.run();
    assert.equal(environment.options.checkpoints, undefined);
    assert.equal(task.log.events.filter((e) => e.type === 'checkpoint_created').length, 0);
  });
});
