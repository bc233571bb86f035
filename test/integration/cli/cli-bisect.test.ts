// `smith bisect` on real tasks made by the CLI against the scripted LLM server: it names the
// step that planted the bug (its tool, file and diff), never touches the real workspace or the
// task's log, counts a hanging test as failing and ends its processes, and says clearly when
// there is nothing to bisect.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import type { BisectReport } from '../../../src/core/bisect/run-bisect.js';
import { findSandbox } from '../../../src/core/process/task-sandbox.js';
import type { ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli, spawnCli } from '../../helpers/cli-runner.js';
import { until } from '../../helpers/until.js';
import { folderFingerprint } from '../../helpers/folder-fingerprint.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';

const reply = (text: string): ScriptedReply => ({ text, usage: { input: 100, output: 10 } });
const write = (path: string, content: string) => reply(`<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`);
const replace = (path: string, search: string, replacement: string) =>
  reply(`<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replacement}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`);
const complete = reply('<attempt_completion>\n<result>Done.</result>\n</attempt_completion>');

/** The check the bisects run: passes while add() adds, fails once it does not; hangs (with a child) where hang.flag exists. */
const CHECK_JS = `const fs = require('node:fs');
if (fs.existsSync('hang.flag')) {
  require('node:child_process').spawn('sleep', ['987654.321'], { stdio: 'ignore' });
  setInterval(() => {}, 1000);
} else {
  const { add } = require('./lib.js');
  if (add(2, 3) !== 5) { console.error('add(2, 3) gave ' + add(2, 3)); process.exit(1); }
  console.log('ok');
}`;
const LIB_JS = 'exports.add = (a, b) => {\n  return a + b;\n};\n';

/** Processes whose command line holds `needle` (Linux /proc). */
function processesWith(needle: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('smith bisect', async () => {
  const fx = useAgentFixture();
  const found = await findSandbox();
  const sandboxed = !('reason' in found);

  /** A task of six edits; the one at `buggy` (0-based) breaks add(). Returns its id. */
  async function sixEdits(buggy: number, extra: readonly string[] = []): Promise<string> {
    fx.ws.write('check.js', CHECK_JS);
    fx.ws.write('lib.js', LIB_JS);
    const steps = [
      write('notes.md', '# Notes\n'),
      write('src/util.js', 'exports.twice = (x) => 2 * x;\n'),
      replace('notes.md', '# Notes', '# Notes\n\nadd() adds.'),
      write('src/more.js', 'exports.more = 1;\n'),
      write('README.txt', 'read me\n'),
      write('src/last.js', 'exports.last = true;\n'),
    ];
    steps.splice(buggy, 1, replace('lib.js', '  return a + b;', '  return a - b;'));
    fx.server.enqueue(...steps, complete);
    const run = await runCli({ args: [...fx.cliArgs(), '--auto-approve', 'edit', '--output', 'json', ...extra, 'Six edits'] });
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as { taskId: string }).taskId;
  }

  const bisect = (taskId: string, ...extra: string[]) =>
    runCli({ args: ['bisect', taskId, '--test', 'node check.js', '--storage', fx.storage, '--output', 'json', ...extra], timeoutMs: 120_000 });

  test('names exactly the step that planted the bug, with its file and diff, in about log2 runs; workspace and log untouched', async () => {
    const taskId = await sixEdits(3);
    const log = join(fx.storage, 'tasks', taskId, 'events.jsonl');
    const workspaceBefore = folderFingerprint(fx.ws.root);
    const logBefore = readFileSync(log);

    const run = await bisect(taskId);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as BisectReport;
    assert.equal(report.outcome, 'found', report.message);
    assert.equal(report.checkpoints, 7);
    assert.equal(report.confinement, sandboxed ? 'sandboxed' : 'unavailable');
    const culprit = report.culprit!;
    assert.equal(culprit.steps.length, 1);
    assert.equal(culprit.steps[0]!.checkpointId, '4');
    assert.equal(culprit.steps[0]!.step.tool, 'replace_in_file');
    assert.equal(culprit.steps[0]!.step.params?.path, 'lib.js');
    assert.equal(culprit.lastPassing, '3');
    assert.equal(culprit.firstFailing, '4');
    assert.deepEqual(culprit.diff.files, [{ path: 'lib.js', change: 'modified', added: 1, removed: 1 }]);
    assert.match(culprit.diff.patch, /^- {2}return a \+ b;$/m);
    assert.match(culprit.diff.patch, /^\+ {2}return a - b;$/m);
    assert.match(culprit.output, /add\(2, 3\) gave -1/);
    // First, last, then a binary search over the five states between: at most 2 + 3 runs.
    assert.ok(report.runs.length <= 5, `${report.runs.length} runs`);
    assert.deepEqual(
      report.runs.slice(0, 2).map((r) => [r.checkpointId, r.verdict]),
      [
        ['0', 'pass'],
        ['6', 'fail'],
      ],
    );
    // Each run was reported as it went.
    assert.equal(run.stderr.match(/^Testing checkpoint /gm)?.length, report.runs.length);
    assert.match(run.stderr, /Testing checkpoint 4 of 6: after replace_in_file path=lib\.js/);

    assert.equal(folderFingerprint(fx.ws.root), workspaceBefore, 'the workspace is byte-identical');
    assert.deepEqual(readFileSync(log), logBefore, "the task's log is byte-identical");
    assert.deepEqual(readdirSync(join(fx.storage, 'bisects')), [], 'the scratch copies are gone');

    const human = await runCli({ args: ['bisect', taskId, '--test', 'node check.js', '--storage', fx.storage] });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /The test fails from checkpoint 4 on: after step replace_in_file path=lib\.js\./);
    assert.match(human.stdout, /^ {2}lib\.js {2}modified \+1 -1$/m);
    assert.match(human.stdout, /^\+ {2}return a - b;$/m);
  });

  test('--linear tests every state in order up to the first failing one', async () => {
    const taskId = await sixEdits(1);
    const run = await bisect(taskId, '--linear');
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as BisectReport;
    assert.equal(report.mode, 'linear');
    assert.equal(report.culprit?.firstFailing, '2');
    assert.deepEqual(
      report.runs.map((r) => [r.checkpointId, r.verdict]),
      [
        ['0', 'pass'],
        ['6', 'fail'],
        ['1', 'pass'],
        ['2', 'fail'],
      ],
    );
  });

  test('a hanging test is killed with its processes at the time limit and counts as failing', async () => {
    fx.ws.write('check.js', CHECK_JS);
    fx.ws.write('lib.js', LIB_JS);
    fx.server.enqueue(write('a.txt', 'a\n'), write('hang.flag', 'hang\n'), write('b.txt', 'b\n'), complete);
    const made = await runCli({ args: [...fx.cliArgs(), '--auto-approve', 'edit', '--output', 'json', 'Hang'] });
    assert.equal(made.code, 0, made.stderr);
    const taskId = (JSON.parse(made.stdout) as { taskId: string }).taskId;
    const run = await bisect(taskId, '--timeout', '2');
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as BisectReport;
    assert.equal(report.culprit?.firstFailing, '2');
    assert.equal(report.culprit?.steps[0]?.step.params?.path, 'hang.flag');
    const timedOut = report.runs.filter((r) => r.timedOut);
    assert.ok(timedOut.length >= 1);
    for (const r of timedOut) assert.equal(r.verdict, 'fail');
    assert.match(run.stderr, /fail \(timed out after 2 s; its processes were killed\)/);
    assert.deepEqual(processesWith('987654.321'), [], "the test's child process was ended too");
    assert.deepEqual(readdirSync(join(fx.storage, 'bisects')), []);
  });

  test('Ctrl+C ends the running test with its processes and removes the scratch copies', async () => {
    fx.ws.write('check.js', CHECK_JS);
    fx.ws.write('lib.js', LIB_JS);
    fx.server.enqueue(write('hang.flag', 'hang\n'), complete);
    const made = await runCli({ args: [...fx.cliArgs(), '--auto-approve', 'edit', '--output', 'json', 'Hang'] });
    const taskId = (JSON.parse(made.stdout) as { taskId: string }).taskId;
    const { child, done } = spawnCli({ args: ['bisect', taskId, '--test', 'node check.js', '--storage', fx.storage], timeoutMs: 120_000 });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Checkpoint 1 hangs: wait until its test is running (its child started), then interrupt.
    await until(() => stderr.includes('Testing checkpoint 1') && processesWith('987654.321').length > 0, 'the hanging test', 60_000);
    child.kill('SIGINT');
    const run = await done;
    assert.equal(run.code, 130, run.stderr);
    assert.match(run.stderr, /The bisect was stopped; its scratch copies were removed\./);
    assert.deepEqual(processesWith('987654.321'), []);
    assert.deepEqual(readdirSync(join(fx.storage, 'bisects')), []);
  });

  test('nothing to bisect: the test fails before the task, or passes after it', async () => {
    const taskId = await sixEdits(2);
    const before = await bisect(taskId, '--test', 'node -e "process.exit(3)"');
    assert.equal(before.code, 1);
    const b = JSON.parse(before.stdout) as BisectReport;
    assert.equal(b.outcome, 'fails-before');
    assert.match(b.message, /already fails on the workspace as the task found it \(checkpoint 0, exit code 3\)/);
    assert.equal(b.runs.length, 1);

    // What a bisect killed with SIGKILL left behind (its owner no longer runs) is removed by the next one.
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    const leftover = join(fx.storage, 'bisects', 'killed-bisect');
    mkdirSync(join(leftover, 'state-3', 'project'), { recursive: true });
    writeFileSync(join(leftover, 'owner.json'), JSON.stringify({ pid: deadPid, startedAt: 0 }));
    const after = await bisect(taskId, '--test', 'node -e "1"');
    assert.equal(after.code, 1);
    const a = JSON.parse(after.stdout) as BisectReport;
    assert.equal(a.outcome, 'passes-after');
    assert.match(a.message, /passes after the task's last step \(checkpoint 6\)/);
    assert.equal(existsSync(leftover), false, 'the dead bisect folder was removed');
    const human = await runCli({ args: ['bisect', taskId, '--test', 'true', '--storage', fx.storage] });
    assert.equal(human.code, 1);
    assert.match(human.stdout, /nothing to bisect/);
  });

  test('a task without checkpoints, with only the first, or whose checkpoints were removed', async () => {
    const none = await sixEdits(3, ['--no-checkpoints']);
    const n = await bisect(none);
    assert.equal(n.code, 1);
    assert.equal((JSON.parse(n.stdout) as BisectReport).outcome, 'no-checkpoints');

    fx.server.enqueue(complete);
    const made = await runCli({ args: [...fx.cliArgs(), '--output', 'json', 'Nothing to change'] });
    const one = (JSON.parse(made.stdout) as { taskId: string }).taskId;
    const o = await bisect(one);
    assert.equal(o.code, 1);
    assert.equal((JSON.parse(o.stdout) as BisectReport).outcome, 'one-checkpoint');

    const pruned = await sixEdits(2);
    rmSync(join(fx.storage, 'checkpoints'), { recursive: true, force: true });
    const p = await bisect(pruned);
    assert.equal(p.code, 1);
    const report = JSON.parse(p.stdout) as BisectReport;
    assert.equal(report.outcome, 'untestable');
    assert.match(report.message, /cannot be tested: its files are no longer stored \(the checkpoint storage of .* was removed\)/);
  });

  test('an unknown task id names recent ones; a bad command line is a usage error', async () => {
    const taskId = await sixEdits(2);
    const run = await bisect('20200101T000000-nosuch');
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`No task with id "20200101T000000-nosuch" in .*\\. Recent tasks: ${taskId}`));
    assert.equal((JSON.parse(run.stdout) as { outcome: string }).outcome, 'error');

    for (const args of [
      ['bisect', taskId],
      ['bisect', '--test', 'true'],
      ['bisect', taskId, '--test', 'true', '--timeout', '0'],
      ['bisect', '../x', '--test', 'true'],
    ]) {
      const usage = await runCli({ args: [...args, '--storage', fx.storage] });
      assert.equal(usage.code, 2, `${args.join(' ')}: ${usage.stderr}`);
    }
    const help = await runCli({ args: ['bisect', '--help'] });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: smith bisect TASK_ID --test COMMAND/);
  });

  test('multi-root: every folder is copied beside the others, so a test reaching ../<folder> finds it; the step in the other folder is named', async () => {
    const extra = createTempWorkspace('smith-bisect-extra-');
    try {
      const lib = join(extra.root, 'shared-lib');
      mkdirSync(lib);
      writeFileSync(join(lib, 'lib.js'), LIB_JS);
      // The test reaches the other folder by its place beside the workspace, as the original did.
      const relativeLib = relative(fx.ws.root, join(lib, 'lib.js'));
      fx.ws.write('check.js', `if (require(${JSON.stringify(`./${relativeLib}`)}).add(2, 3) !== 5) process.exit(1);\n`);
      assert.equal(spawnSync(process.execPath, ['check.js'], { cwd: fx.ws.root }).status, 0);
      fx.server.enqueue(write('a.txt', 'a\n'), replace('shared-lib/lib.js', '  return a + b;', '  return a - b;'), write('shared-lib/b.txt', 'b\n'), complete);
      const made = await runCli({ args: [...fx.cliArgs(), '--add-dir', lib, '--auto-approve', 'edit', '--output', 'json', 'Two folders'] });
      assert.equal(made.code, 0, made.stderr);
      const taskId = (JSON.parse(made.stdout) as { taskId: string }).taskId;
      const before = [folderFingerprint(fx.ws.root), folderFingerprint(lib)];
      const run = await bisect(taskId);
      assert.equal(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout) as BisectReport;
      assert.equal(report.culprit?.firstFailing, '2', report.message);
      assert.equal(report.culprit?.steps[0]?.step.params?.path, 'shared-lib/lib.js');
      assert.deepEqual(
        report.culprit?.diff.files.map((f) => f.path),
        ['shared-lib/lib.js'],
      );
      assert.match(report.culprit?.diff.patch ?? '', /^\+ {2}return a - b;$/m);
      assert.deepEqual([folderFingerprint(fx.ws.root), folderFingerprint(lib)], before);
    } finally {
      extra.dispose();
    }
  });

  test('without bubblewrap the test runs unconfined, and the bisect says so before the first run', async () => {
    const taskId = await sixEdits(2);
    const run = await runCli({
      args: ['bisect', taskId, '--test', `${process.execPath} check.js`, '--storage', fx.storage, '--output', 'json'],
      env: { PATH: '/nonexistent' },
      timeoutMs: 120_000,
    });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as BisectReport;
    assert.equal(report.confinement, 'unavailable');
    assert.match(report.sandboxReason ?? '', /needs bubblewrap/);
    assert.equal(report.culprit?.firstFailing, '3');
    const notice = run.stderr.indexOf('the test runs unconfined: the command sandbox needs bubblewrap');
    assert.ok(notice >= 0 && notice < run.stderr.indexOf('Testing checkpoint 0'), run.stderr);
  });

  test('in the sandbox the test cannot write the real workspace, by absolute path or cd ..', { skip: sandboxed ? false : 'no sandbox here' }, async () => {
    const taskId = await sixEdits(4);
    const before = folderFingerprint(fx.ws.root);
    const escaping = `echo x > ${fx.ws.root}/escaped.txt; echo y > ../../up.txt; node check.js`;
    const run = await bisect(taskId, '--test', escaping);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as BisectReport;
    assert.equal(report.culprit?.firstFailing, '5', JSON.stringify(report.runs, null, 1));
    assert.equal(folderFingerprint(fx.ws.root), before);
    assert.equal(existsSync(join(fx.ws.root, 'escaped.txt')), false);

    const off = await bisect(taskId, '--no-sandbox');
    assert.equal((JSON.parse(off.stdout) as BisectReport).confinement, 'off');
  });
});
