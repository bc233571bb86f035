// `smith bisect` with the workspace's ignored entries: what checkpoints leave out (node_modules,
// a .gitignore'd folder, nested node_modules) is linked into each copy read-only under the
// sandbox, so a test that needs them can judge every state; the real folders stay byte-identical,
// what .smithignore hides and what the task created are never linked, and without the sandbox
// nothing is linked unless asked.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { BisectReport } from '../../../src/core/bisect/run-bisect.js';
import { findSandbox } from '../../../src/core/process/task-sandbox.js';
import type { ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { folderFingerprint } from '../../helpers/folder-fingerprint.js';

const reply = (text: string): ScriptedReply => ({ text, usage: { input: 100, output: 10 } });
const write = (path: string, content: string) => reply(`<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`);
const replace = (path: string, search: string, replacement: string) =>
  reply(`<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replacement}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`);
const complete = reply('<attempt_completion>\n<result>Done.</result>\n</attempt_completion>');

/**
 * Needs the ignored dependencies; fails (exit 3/4) when .smithignore's file is visible or a write
 * into node_modules gets through; otherwise passes while add() adds.
 */
const CHECK_JS = `const fs = require('node:fs');
const { twice } = require('dep');
const { inner } = require('./packages/a/node_modules/inner');
const { vendored } = require('./vendor/v.js');
if (fs.existsSync('secret.env')) { console.error('secret.env is visible'); process.exit(3); }
for (const target of ['node_modules/dep/index.js', 'node_modules/written.txt', 'packages/a/node_modules/inner/index.js']) {
  try { fs.writeFileSync(target, 'overwritten'); console.error('wrote ' + target); process.exit(4); } catch {}
}
const { add } = require('./lib.js');
if (add(2, 3) !== 5 || twice(2) !== 4 || !inner || !vendored) { console.error('add(2, 3) gave ' + add(2, 3)); process.exit(1); }
console.log('ok');`;

describe('smith bisect links the ignored entries', async () => {
  const fx = useAgentFixture();
  const found = await findSandbox();
  const sandboxed = !('reason' in found);

  /** A workspace with ignored dependencies and a task of five steps; the one at `buggy` breaks add(). */
  async function task(buggy: number): Promise<string> {
    fx.ws.write('check.js', CHECK_JS);
    fx.ws.write('lib.js', 'exports.add = (a, b) => {\n  return a + b;\n};\n');
    fx.ws.write('.gitignore', 'vendor/\n');
    fx.ws.write('.smithignore', 'secret.env\n');
    fx.ws.write('secret.env', 'TOKEN=1\n');
    fx.ws.write('node_modules/dep/index.js', 'exports.twice = (x) => 2 * x;\n');
    fx.ws.write('node_modules/dep/package.json', '{"name":"dep","main":"index.js"}\n');
    fx.ws.write('packages/a/package.json', '{"name":"a"}\n');
    fx.ws.write('packages/a/node_modules/inner/index.js', 'exports.inner = true;\n');
    fx.ws.write('vendor/v.js', 'exports.vendored = true;\n');
    const steps = [
      write('notes.md', '# Notes\n'),
      write('src/util.js', 'exports.util = 1;\n'),
      write('README.txt', 'read me\n'),
      write('src/more.js', 'exports.more = 1;\n'),
      write('src/last.js', 'exports.last = true;\n'),
    ];
    steps.splice(buggy, 1, replace('lib.js', '  return a + b;', '  return a - b;'));
    fx.server.enqueue(...steps, complete);
    const run = await runCli({ args: [...fx.cliArgs(), '--auto-approve', 'edit', '--output', 'json', 'Five edits'] });
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as { taskId: string }).taskId;
  }

  const bisect = async (taskId: string, command: string, ...extra: string[]) => {
    const run = await runCli({ args: ['bisect', taskId, '--test', command, '--storage', fx.storage, '--output', 'json', ...extra], timeoutMs: 120_000 });
    return { run, report: JSON.parse(run.stdout) as BisectReport };
  };

  test('sandboxed: the planted step is found with the dependencies linked read-only; the real ones stay byte-identical', { skip: !sandboxed }, async () => {
    const taskId = await task(2);
    const before = folderFingerprint(fx.ws.root);
    const modules = folderFingerprint(join(fx.ws.root, 'node_modules'));
    const { run, report } = await bisect(taskId, 'node check.js');
    assert.equal(run.code, 0, `${run.stderr}\n${JSON.stringify(report.runs)}`);
    assert.equal(report.outcome, 'found', report.message);
    assert.equal(report.linked, true);
    assert.equal(report.culprit?.firstFailing, '3');
    // Every failing run failed on add(), not on a write that got through or a visible secret.
    for (const r of report.runs.filter((r) => r.verdict === 'fail')) assert.match(r.output, /add\(2, 3\) gave -1/);
    assert.match(run.stderr, /ignored folders such as node_modules linked read-only/);
    assert.equal(folderFingerprint(join(fx.ws.root, 'node_modules')), modules, 'node_modules is byte-identical');
    assert.equal(folderFingerprint(fx.ws.root), before, 'the workspace is byte-identical');
  });

  test('sandboxed: a folder the task created (not ignored) is not linked into the states before it', { skip: !sandboxed }, async () => {
    // src/ is created by the step at index 1 (checkpoint 2); the test fails where src/ exists.
    const taskId = await task(4);
    const { run, report } = await bisect(taskId, 'test ! -e src && node check.js');
    assert.equal(run.code, 0, `${run.stderr}\n${JSON.stringify(report.runs)}`);
    assert.equal(report.outcome, 'found', report.message);
    assert.equal(report.culprit?.firstFailing, '2');
    assert.equal(report.culprit?.steps[0]?.step.params?.path, 'src/util.js');
  });

  test('--no-link: the dependencies are missing, so the test fails before the task', async () => {
    const taskId = await task(2);
    const { report } = await bisect(taskId, 'node check.js', '--no-link');
    assert.equal(report.linked, false);
    assert.equal(report.outcome, 'fails-before', report.message);
    assert.match(report.runs[0]!.output, /Cannot find module 'dep'/);
  });

  test('unconfined: nothing is linked unless --link-ignored, which says the links are writable', async () => {
    const taskId = await task(2);
    const { run, report } = await bisect(taskId, 'node -e "require(\'dep\')"', '--no-sandbox');
    assert.equal(report.linked, false);
    assert.equal(report.outcome, 'fails-before', report.message);
    assert.match(run.stderr, /not linked \(unconfined; --link-ignored links them\)/);
    const forced = await bisect(taskId, 'node -e "require(\'dep\')"', '--no-sandbox', '--link-ignored');
    assert.equal(forced.report.linked, true);
    assert.equal(forced.report.outcome, 'passes-after', forced.report.message);
    assert.match(forced.run.stderr, /WRITABLE through the links/);
    const both = await runCli({ args: ['bisect', taskId, '--test', 'true', '--storage', fx.storage, '--no-link', '--link-ignored'] });
    assert.equal(both.code, 2);
  });
});
