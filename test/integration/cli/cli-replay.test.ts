// `smith replay` against the scripted server: a task run once by the CLI, then run again with
// another model in a scratch copy of its workspace, and compared.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ReplayComparison } from '../../../src/core/replay/run-replay.js';
import { NOT_APPROVED_IN_ORIGINAL } from '../../../src/core/replay/replay-answers.js';
import type { RecordedRequest, ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { allText, lastUserText, systemPromptOf, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';

const usage = { input: 1_000, output: 100 };
const reply = (text: string): ScriptedReply => ({ text, usage });
const write = (path: string, content: string) => reply(`<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`);
const replace = (path: string, search: string, by: string) =>
  reply(`<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${by}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`);
const command = (line: string) => reply(`<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>`);
const complete = (result: string) => reply(`<attempt_completion>\n<result>${result}</result>\n</attempt_completion>`);

describe('smith replay', () => {
  const fx = useAgentFixture();
  const storage = () => ['--storage', fx.storage];
  /** The scripted server, pointed at by model id: each flag list replays with its own model. */
  const replayFlags = (model: string) => [
    '--provider',
    'openai-compatible',
    '--base-url',
    fx.server.openAiBaseUrl,
    '--model',
    model,
    '--input-price',
    '3',
    '--output-price',
    '4',
  ];

  /** The original run: an edit auto-approved by --auto-approve edit, a command the user rejects with feedback. */
  async function runOriginal(extra: string[] = []): Promise<string> {
    fx.ws.write('a.txt', 'as the user left it\n');
    fx.server.enqueue(replace('a.txt', 'as the user left it', 'from the original'), command('touch c.txt'), complete('Edited a.txt.'));
    const args = [...fx.cliArgs(), '--auto-approve', 'edit', '--input-price', '1', '--output-price', '2', '--output', 'json', ...extra, 'Edit a.txt'];
    const run = await runCli({ args, stdin: 'no commands please\n' });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fx.ws.read('a.txt'), 'from the original\n');
    assert.equal(existsSync(join(fx.ws.root, 'c.txt')), false);
    return (JSON.parse(run.stdout) as { taskId: string }).taskId;
  }

  test('replays a task with another model in a scratch copy, rejects what the user rejected, and compares the runs', async () => {
    const taskId = await runOriginal();
    const replayRequests: RecordedRequest[] = [];
    const seen = (r: ScriptedReply) => (req: RecordedRequest) => {
      replayRequests.push(req);
      return r;
    };
    fx.server.enqueue(
      seen(write('b.txt', 'from the replay')),
      seen(command('touch c.txt')),
      seen(command('touch d.txt')),
      seen(reply('I think I am done.')),
      seen(complete('Wrote b.txt.')),
    );
    const run = await runCli({ args: ['replay', taskId, ...replayFlags('other-model'), '--output', 'json', ...storage()] });
    assert.equal(run.code, 0, run.stderr);
    const c = JSON.parse(run.stdout) as ReplayComparison;

    // The user's workspace is as the original run left it; the scratch copy has the replay's edits on the first checkpoint.
    assert.equal(fx.ws.read('a.txt'), 'from the original\n');
    assert.equal(existsSync(join(fx.ws.root, 'b.txt')), false);
    assert.ok(c.workspace.startsWith(join(fx.storage, 'replays')));
    assert.equal(readFileSync(join(c.workspace, 'a.txt'), 'utf8'), 'as the user left it\n');
    assert.equal(readFileSync(join(c.workspace, 'b.txt'), 'utf8'), 'from the replay\n');
    assert.equal(existsSync(join(c.workspace, 'c.txt')), false, 'the command the user rejected did not run');
    assert.equal(existsSync(join(c.workspace, 'd.txt')), false, 'a command the original never ran is not approved');
    assert.deepEqual(JSON.parse(readFileSync(join(c.folder, 'comparison.json'), 'utf8')), c);

    // Every replay request went to the other model; the rejections carry the user's feedback and the replay's own note.
    assert.ok(replayRequests.every((r) => r.body.model === 'other-model'));
    assert.match(allText(replayRequests[2]!), /no commands please/);
    assert.ok(allText(replayRequests[3]!).includes(NOT_APPROVED_IN_ORIGINAL));

    const { original, replay } = c;
    assert.equal(original.model, 'scripted-model');
    assert.equal(replay.model, 'other-model');
    assert.equal(original.status, 'completed');
    assert.equal(replay.status, 'completed');
    assert.deepEqual(original.tools, { replace_in_file: 1, execute_command: 1, attempt_completion: 1 });
    assert.deepEqual(replay.tools, { write_to_file: 1, execute_command: 2, attempt_completion: 1 });
    assert.equal(original.toolCalls, 3);
    assert.equal(replay.toolCalls, 4);
    assert.equal(original.mistakes, 0);
    assert.equal(replay.mistakes, 1);
    assert.deepEqual(original.approvals, { approved: 1, rejected: 1 });
    assert.deepEqual(replay.approvals, { approved: 1, rejected: 2 });
    assert.deepEqual(original.tokens, { input: 3_000, output: 300, cacheRead: 0, cacheWrite: 0 });
    assert.deepEqual(replay.tokens, { input: 5_000, output: 500, cacheRead: 0, cacheWrite: 0 });
    assert.ok(Math.abs(original.cost! - (3_000 * 1 + 300 * 2) / 1e6) < 1e-12);
    assert.ok(Math.abs(replay.cost! - (5_000 * 3 + 500 * 4) / 1e6) < 1e-12);
    assert.ok(original.durationMs >= 0 && replay.durationMs >= 0);
    assert.deepEqual(original.diff.files, [{ path: 'a.txt', change: 'modified', added: 1, removed: 1 }]);
    assert.deepEqual(replay.diff.files, [{ path: 'b.txt', change: 'added', added: 1, removed: 0 }]);
    assert.match(replay.diff.patch, /\+from the replay/);
  });

  test('prints the comparison as a table for people', async () => {
    const taskId = await runOriginal();
    fx.server.enqueue(replace('a.txt', 'as the user left it', 'from the replay'), complete('Done.'));
    const run = await runCli({ args: ['replay', taskId, ...replayFlags('other-model'), ...storage()] });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^ +original +replay$/m);
    assert.match(run.stdout, /^model +openai-compatible scripted-model +openai-compatible other-model$/m);
    assert.match(run.stdout, /^tool calls +3 +2$/m);
    assert.match(run.stdout, /^ {2}execute_command +1 +0$/m);
    assert.match(run.stdout, /^mistakes +0 +0$/m);
    assert.match(run.stdout, /^cost +\$0\.0036 +\$0\.0068$/m);
    assert.match(run.stdout, /^ {2}a\.txt +modified \+1 -1 +modified \+1 -1$/m);
    assert.match(run.stdout, /Replay changed:\n--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,1 \+1,1 @@\n-as the user left it\n\+from the replay/);
    assert.match(run.stderr, /\[replay\] replace_in_file a\.txt/);
  });

  test('every message of the user is sent again in order, with --rules in place of the workspace rules', async () => {
    fx.ws.write('.smithrules', 'Old rule: answer in English.\n');
    fx.server.enqueue(complete('First part done.'));
    const first = await runCli({ args: [...fx.cliArgs(), '--output', 'json', 'Do the first part'] });
    assert.equal(first.code, 0, first.stderr);
    const { taskId } = JSON.parse(first.stdout) as { taskId: string };
    fx.server.enqueue(complete('Second part done.'));
    const second = await runCli({ args: [...fx.cliArgs(), '--output', 'json', '--resume', taskId, 'Now the second part'] });
    assert.equal(second.code, 0, second.stderr);
    const rules = join(fx.storage, 'new-rules.md');
    writeFileSync(rules, 'New rule: answer in French.\n');
    const requests: RecordedRequest[] = [];
    const answer = (text: string) => (req: RecordedRequest) => {
      requests.push(req);
      return complete(text);
    };
    fx.server.enqueue(answer('Premier.'), answer('Second.'));
    const run = await runCli({ args: ['replay', taskId, ...replayFlags('other-model'), '--rules', rules, '--output', 'json', ...storage()] });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(requests.length, 2);
    assert.match(lastUserText(requests[0]!), /Do the first part/);
    assert.match(lastUserText(requests[1]!), /Now the second part/);
    for (const request of requests) {
      assert.match(systemPromptOf(request), /New rule: answer in French\./);
      assert.doesNotMatch(systemPromptOf(request), /Old rule/);
    }
    const c = JSON.parse(run.stdout) as ReplayComparison;
    assert.equal(c.replay.requests, 2);
    assert.equal(fx.ws.read('.smithrules'), 'Old rule: answer in English.\n', "the user's rules are untouched");
    assert.deepEqual(c.replay.diff.files, [], 'the rules file replaced in the scratch copy is where the replay began, not a change of it');
  });

  test('an unknown task id and a task without checkpoints are clear errors', async () => {
    const unknown = await runCli({ args: ['replay', 'no-such-task', ...replayFlags('other-model'), ...storage()] });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /smith: No task with id "no-such-task"/);
    const taskId = await runOriginal(['--no-checkpoints']);
    const none = await runCli({ args: ['replay', taskId, ...replayFlags('other-model'), ...storage()] });
    assert.equal(none.code, 1);
    assert.match(none.stderr, new RegExp(`smith: task ${taskId} has no checkpoints \\(they were off when it ran\\)`));
    assert.equal(fx.server.requests.length, 3, 'no replay request was made');
    const usage = await runCli({ args: ['replay', ...storage()] });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /smith replay TASK_ID/);
    const help = await runCli({ args: ['replay', '--help'] });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: smith replay TASK_ID/);
  });

  test('--batch runs the listed replays side by side and prints one table', async () => {
    const taskId = await runOriginal();
    // Both replays run at once: each request is answered from its model's own script.
    const scripts: Record<string, ScriptedReply[]> = {
      'model-one': [write('one.txt', 'one'), complete('One.')],
      'model-two': [write('two.txt', 'two'), command('touch c.txt'), complete('Two.')],
    };
    const byModel = (req: RecordedRequest) => scripts[String(req.body.model)]!.shift()!;
    fx.server.enqueue(...Array.from({ length: 5 }, () => byModel));
    const batch = join(fx.storage, 'batch.json');
    writeFileSync(
      batch,
      JSON.stringify({
        concurrency: 2,
        runs: [
          { task: taskId, model: 'model-one' },
          { task: taskId, model: 'model-two', label: 'second', mode: 'code' },
        ],
      }),
    );
    const run = await runCli({ args: ['replay', '--batch', batch, '--provider', 'openai-compatible', '--base-url', fx.server.openAiBaseUrl, ...storage()] });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 4, run.stdout);
    assert.match(lines[0]!, /^task +run +model +mode +status +calls +mistakes +tokens in +tokens out +cost +time +files$/);
    assert.match(
      lines[1]!,
      new RegExp(`^${taskId} +original +openai-compatible scripted-model +code +completed +3 +0 +3,000 +300 +\\$0\\.0036 +\\d+\\.\\d s +1$`),
    );
    assert.match(lines[2]!, new RegExp(`^${taskId} +model-one +openai-compatible model-one +code +completed +2 +0 +2,000 +200 +unknown +\\d+\\.\\d s +1$`));
    assert.match(lines[3]!, new RegExp(`^${taskId} +second +openai-compatible model-two +code +completed +3 +0 +3,000 +300 +unknown +\\d+\\.\\d s +1$`));
    assert.deepEqual(scripts, { 'model-one': [], 'model-two': [] });
  });

  test('--batch: a run that cannot start is a row with its error, the others still run (exit 1); --output json', async () => {
    const taskId = await runOriginal();
    fx.server.enqueue(complete('Nothing to do.'));
    const batch = join(fx.storage, 'batch.json');
    writeFileSync(
      batch,
      JSON.stringify([
        { task: 'no-such-task', model: 'model-one' },
        { task: taskId, model: 'model-two' },
      ]),
    );
    const run = await runCli({
      args: ['replay', '--batch', batch, '--provider', 'openai-compatible', '--base-url', fx.server.openAiBaseUrl, '--output', 'json', ...storage()],
    });
    assert.equal(run.code, 1, run.stderr);
    const { runs } = JSON.parse(run.stdout) as { runs: Array<{ label: string; taskId: string; error?: string; comparison?: ReplayComparison }> };
    assert.deepEqual(
      runs.map((r) => [r.label, r.taskId]),
      [
        ['model-one', 'no-such-task'],
        ['model-two', taskId],
      ],
    );
    assert.match(runs[0]!.error!, /No task with id "no-such-task"/);
    assert.equal(runs[1]!.comparison!.replay.model, 'model-two');
    assert.equal(runs[1]!.comparison!.replay.status, 'completed');
    const bad = join(fx.storage, 'bad.json');
    writeFileSync(bad, JSON.stringify({ runs: [{ model: 'x' }] }));
    const invalid = await runCli({ args: ['replay', '--batch', bad, ...storage()] });
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /--batch .*bad\.json: runs\.0\.task: /);
  });

  test("commands the original's policy let through run in the scratch copy; the user's deny rules still hold", async () => {
    fx.ws.write('a.txt', 'as the user left it\n');
    fx.server.enqueue(command('touch made-by-original.txt'), complete('Done.'));
    const original = await runCli({ args: [...fx.cliArgs(), '--yes', '--output', 'json', 'Make a file'] });
    assert.equal(original.code, 0, original.stderr);
    const { taskId } = JSON.parse(original.stdout) as { taskId: string };
    writeFileSync(join(fx.storage, 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }));
    const requests: RecordedRequest[] = [];
    const seen = (r: ScriptedReply) => (req: RecordedRequest) => {
      requests.push(req);
      return r;
    };
    fx.server.enqueue(seen(command('touch made-by-replay.txt')), seen(command('rm a.txt')), seen(complete('Done.')));
    const run = await runCli({ args: ['replay', taskId, ...replayFlags('other-model'), '--output', 'json', ...storage()] });
    assert.equal(run.code, 0, run.stderr);
    const c = JSON.parse(run.stdout) as ReplayComparison;
    assert.ok(existsSync(join(c.workspace, 'made-by-replay.txt')), 'any command: the original auto-approved one');
    assert.ok(existsSync(join(c.workspace, 'a.txt')), 'the deny rule kept rm from running');
    assert.match(allText(requests[2]!), /Bash\(rm:\*\)/);
    assert.equal(existsSync(join(fx.ws.root, 'made-by-replay.txt')), false);
    assert.deepEqual(
      c.replay.diff.files.map((f) => f.path),
      ['made-by-replay.txt'],
    );
  });

  test('a task of a multi-root workspace (--add-dir) replays with a copy of every folder, named as before, and the diffs cover them', async () => {
    const other = mkdtempSync(join(tmpdir(), 'smith-replay-roots-'));
    try {
      const api = join(realpathSync(other), 'api');
      mkdirSync(api);
      writeFileSync(join(api, 'server.ts'), 'v0\n');
      fx.server.enqueue(write('api/made.ts', 'original'), complete('Made it.'));
      const run = await runCli({ args: [...fx.cliArgs(), '--add-dir', api, '--yes', '--output', 'json', 'Make api/made.ts'] });
      assert.equal(run.code, 0, run.stderr);
      const taskId = (JSON.parse(run.stdout) as { taskId: string }).taskId;
      fx.server.enqueue(write('api/made.ts', 'replayed'), complete('Made it again.'));
      const replay = await runCli({ args: ['replay', taskId, ...replayFlags('other-model'), '--output', 'json', ...storage()] });
      assert.equal(replay.code, 0, replay.stderr);
      const c = JSON.parse(replay.stdout) as ReplayComparison;
      assert.deepEqual(
        c.otherFolders?.map((f) => f.name),
        ['api'],
      );
      const copy = c.otherFolders![0]!.path;
      assert.ok(copy.startsWith(join(fx.storage, 'replays')));
      assert.equal(readFileSync(join(copy, 'server.ts'), 'utf8'), 'v0\n');
      assert.equal(readFileSync(join(copy, 'made.ts'), 'utf8'), 'replayed\n');
      // The user's folder keeps the original run's file.
      assert.equal(readFileSync(join(api, 'made.ts'), 'utf8'), 'original\n');
      assert.deepEqual(
        c.original.diff.files.map((f) => [f.path, f.change]),
        [['api/made.ts', 'added']],
      );
      assert.deepEqual(
        c.replay.diff.files.map((f) => [f.path, f.change]),
        [['api/made.ts', 'added']],
      );
      assert.match(c.replay.diff.patch, /\+replayed/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
