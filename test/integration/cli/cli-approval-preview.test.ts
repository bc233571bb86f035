// The terminal's command approval offers a preview: the command runs under bubblewrap on a copy
// of the workspace, the summary and the patch are printed, and the user runs it for real, applies
// the previewed changes (written as a checkpoint restore writes, so a rewind takes them back) or
// rejects it. Real CLI, real bubblewrap, the scripted LLM server.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { findSandbox } from '../../../src/core/process/task-sandbox.js';
import { allText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { folderFingerprint } from '../../helpers/folder-fingerprint.js';

const reply = (text: string) => ({ text });
const command = (line: string) => reply(`<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>`);
const complete = (result: string) => reply(`<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`);
const LINE = 'echo made > made.txt && echo three >> notes.txt && rm gone.txt && echo all-done';

describe('smith CLI: preview a command before approving it', () => {
  const fx = useAgentFixture();

  function seed(): void {
    fx.ws.write('notes.txt', 'one\ntwo\n');
    fx.ws.write('gone.txt', 'bye\n');
  }

  function events(taskId: string): Array<Record<string, unknown>> {
    return readFileSync(join(fx.storage, 'tasks', taskId, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  test('preview, diff, then apply: exactly the previewed files land, the model is told, the log has the preview, and a rewind takes it back', async (t) => {
    const found = await findSandbox();
    if ('reason' in found) return t.skip(found.reason);
    seed();
    fx.server.enqueue(command(LINE), complete('Done.'));
    const run = await runCli({ args: [...fx.cliArgs(), '--output', 'json', 'Make the files'], answers: ['p', 'd', 'a'], timeoutMs: 180_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Approve\? \[y\]es \/ \[n\]o \/ \[p\]review/);
    assert.match(run.stderr, /1 created, 1 changed, 1 deleted \(\+2 -1 lines\); exit code 0/);
    assert.match(run.stderr, /^ {2}\+three$/m);
    assert.match(run.stderr, /Run for real\? \[y\]es \/ \[a\]pply preview/);
    assert.equal(fx.ws.read('made.txt'), 'made\n');
    assert.equal(fx.ws.read('notes.txt'), 'one\ntwo\nthree\n');
    assert.equal(existsSync(join(fx.ws.root, 'gone.txt')), false);
    const taskId = (JSON.parse(run.stdout) as { taskId: string }).taskId;
    const log = events(taskId);
    const previewed = log.find((e) => e.type === 'command_previewed') as { summary: { created: string[]; changed: string[]; deleted: string[] } };
    assert.deepEqual([previewed.summary.created, previewed.summary.changed, previewed.summary.deleted], [['made.txt'], ['notes.txt'], ['gone.txt']]);
    assert.ok(log.some((e) => e.type === 'approval_answered' && e.applyPreview === true));
    assert.equal(log.filter((e) => e.type === 'command_started').length, 0, 'the command itself never ran');
    const toModel = allText(fx.server.requests.at(-1)!);
    assert.match(toModel, /the user previewed it in a sandbox .* and applied its effects/);
    assert.match(toModel, /Exit code: 0/);
    assert.match(toModel, /all-done/);
    // The step's checkpoint has it; rewinding to the start takes it back.
    const rewound = await runCli({ args: ['rewind', taskId, '0', '--files-only', '--storage', fx.storage] });
    assert.equal(rewound.code, 0, rewound.stderr);
    assert.equal(fx.ws.read('notes.txt'), 'one\ntwo\n');
    assert.equal(fx.ws.read('gone.txt'), 'bye\n');
    assert.equal(existsSync(join(fx.ws.root, 'made.txt')), false);
  });

  test('preview, then reject with feedback: nothing changes, the feedback reaches the model', async (t) => {
    const found = await findSandbox();
    if ('reason' in found) return t.skip(found.reason);
    seed();
    const start = folderFingerprint(fx.ws.root);
    fx.server.enqueue(command(LINE), complete('Understood.'));
    const run = await runCli({ args: [...fx.cliArgs(), 'Make the files'], answers: ['p', 'do not delete gone.txt'], timeoutMs: 180_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(folderFingerprint(fx.ws.root), start);
    assert.match(allText(fx.server.requests.at(-1)!), /do not delete gone\.txt/);
  });

  test('preview, then run for real: the command runs as approved', async (t) => {
    const found = await findSandbox();
    if ('reason' in found) return t.skip(found.reason);
    seed();
    fx.server.enqueue(command('echo real > real.txt'), complete('Done.'));
    const run = await runCli({ args: [...fx.cliArgs(), 'Run it'], answers: ['p', 'y'], timeoutMs: 180_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /1 created, 0 changed, 0 deleted/);
    assert.equal(fx.ws.read('real.txt'), 'real\n');
  });

  test('--preview-timeout bounds the preview: a command still running then is stopped and named as timed out', async (t) => {
    const found = await findSandbox();
    if ('reason' in found) return t.skip(found.reason);
    seed();
    fx.server.enqueue(command('sleep 600'), complete('Fine.'));
    const run = await runCli({ args: [...fx.cliArgs(), '--preview-timeout', '2', 'Wait'], answers: ['p', 'n'], timeoutMs: 180_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /not previewable \(timed-out\): it did not end within 2 s/);
    const bad = await runCli({ args: [...fx.cliArgs(), '--preview-timeout', '0', 'Wait'] });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--preview-timeout must be a number of seconds from 1 to 86400; got "0"/);
  });

  test('a remote effect is named, and Apply is not offered', async (t) => {
    const found = await findSandbox();
    if ('reason' in found) return t.skip(found.reason);
    seed();
    fx.server.enqueue(command('git push origin main'), complete('Fine.'));
    const run = await runCli({ args: [...fx.cliArgs(), 'Push'], answers: ['p', 'a', 'n'], timeoutMs: 180_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /not previewable \(remote-effect\): git push/);
    assert.match(run.stderr, /Apply is not offered/);
    assert.doesNotMatch(run.stderr, /\[a\]pply preview/);
  });
});
