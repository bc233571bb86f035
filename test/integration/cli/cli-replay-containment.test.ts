// `smith replay` never touches the real workspace: a replayed command runs in the sandbox with
// the scratch copy as its only writable place; without a sandbox, the replay says so before it
// starts and runs no command unless --run-commands-unconfined is given.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ReplayComparison } from '../../../src/core/replay/run-replay.js';
import type { ScriptedReply } from '../../fixtures/scripted-llm-server.js';
import { lastUserText, useAgentFixture } from '../../helpers/agent-fixture.js';
import { runCli } from '../../helpers/cli-runner.js';
import { findSandbox } from '../../../src/core/process/task-sandbox.js';

const reply = (text: string): ScriptedReply => ({ text, usage: { input: 100, output: 10 } });
const command = (line: string) => reply(`<execute_command>\n<command>${line}</command>\n<requires_approval>true</requires_approval>\n</execute_command>`);
const complete = reply('<attempt_completion>\n<result>Done.</result>\n</attempt_completion>');

/** Every entry under a folder with its content (or a link's target), to compare byte for byte. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stats = lstatSync(path);
      if (stats.isSymbolicLink()) out[path] = `-> ${readlinkSync(path)}`;
      else if (stats.isDirectory()) {
        out[`${path}/`] = '';
        walk(path);
      } else out[path] = readFileSync(path, 'latin1');
    }
  };
  walk(root);
  return out;
}

describe('smith replay: commands and the real workspace', async () => {
  const fx = useAgentFixture();
  const found = await findSandbox();
  const replayArgs = (taskId: string, ...extra: string[]) => [
    'replay',
    taskId,
    '--provider',
    'openai-compatible',
    '--base-url',
    fx.server.openAiBaseUrl,
    '--model',
    'replay-model',
    '--output',
    'json',
    '--storage',
    fx.storage,
    ...extra,
  ];

  /** The original run auto-approved every command, so a replay may run any command. */
  async function runOriginal(): Promise<string> {
    fx.ws.write('a.txt', "the user's file\n");
    // A link in the workspace back to itself: the scratch copy has it too, pointing at the real workspace.
    symlinkSync(fx.ws.root, join(fx.ws.root, 'back'));
    fx.server.enqueue(command('echo hi'), complete);
    const run = await runCli({ args: [...fx.cliArgs(), '--auto-approve', 'edit,commands', '--output', 'json', 'Say hi'] });
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as { taskId: string }).taskId;
  }

  test('in the sandbox, a replayed command writes the scratch copy and nothing else: not by absolute path, cd .., or a link back', {
    skip: 'reason' in found ? found.reason : false,
  }, async () => {
    const taskId = await runOriginal();
    const before = snapshot(fx.ws.root);
    const real = fx.ws.root;
    fx.server.enqueue(
      command(`echo escaped > ${real}/escaped.txt; echo "exit=$?"`),
      command('echo up > ../up.txt; cd ../.. && echo up2 > up2.txt; echo "exit=$?"'),
      command('echo via > back/via-link.txt; echo "exit=$?"'),
      command(`ln -s ${real} mine && echo via > mine/via-mine.txt; echo "exit=$?"`),
      command('echo inside > inside.txt; echo "exit=$?"'),
      // The file tools too: the link leads outside the copy, so the edit is not approved.
      reply('<write_to_file>\n<path>back/via-tool.txt</path>\n<content>\nvia the tool\n</content>\n</write_to_file>'),
      complete,
    );
    const run = await runCli({ args: replayArgs(taskId) });
    assert.equal(run.code, 0, run.stderr);
    const c = JSON.parse(run.stdout) as ReplayComparison;
    assert.equal(c.commands, 'sandboxed');
    assert.match(run.stderr, /The replay's commands run in the sandbox: only the scratch copy is writable/);
    assert.deepEqual(snapshot(fx.ws.root), before, 'the real workspace is byte-identical');
    assert.equal(readFileSync(join(c.workspace, 'inside.txt'), 'utf8'), 'inside\n');
    assert.equal(existsSync(join(c.folder, 'up.txt')), false);
    assert.equal(existsSync(join(c.folder, '..', 'up2.txt')), false);
    // (Above the scratch copy, a write that did not fail landed in the sandbox's private /tmp, where the test's storage is.)
    for (const i of [1, 3, 4]) assert.match(lastUserText(fx.server.requestAt(2 + i)), /exit=[12]\b/, `command ${i} wrote`);
    assert.match(lastUserText(fx.server.requestAt(7)), /exit=0/);
  });

  test('without a sandbox the replay says so before it starts and runs no command; --run-commands-unconfined runs them', async () => {
    const taskId = await runOriginal();
    const before = snapshot(fx.ws.root);
    fx.server.enqueue(command(`echo escaped > ${fx.ws.root}/escaped.txt`), complete);
    // A PATH without bubblewrap (the shell is /bin/sh, found without PATH).
    const run = await runCli({ args: replayArgs(taskId), env: { PATH: '/nonexistent' } });
    assert.equal(run.code, 0, run.stderr);
    const c = JSON.parse(run.stdout) as ReplayComparison;
    assert.equal(c.commands, 'not run');
    const notice = run.stderr.indexOf('Commands are not run in this replay: the command sandbox needs bubblewrap');
    assert.ok(notice >= 0, run.stderr);
    assert.ok(notice < run.stderr.indexOf('replaying task'), 'said before the replay starts');
    assert.match(run.stderr, /To run them anyway, unconfined, pass --run-commands-unconfined/);
    assert.match(lastUserText(fx.server.requestAt(3)), /Commands are not run in this replay/);
    assert.deepEqual(snapshot(fx.ws.root), before);

    fx.server.enqueue(command('echo inside > inside.txt'), complete);
    const unconfined = await runCli({ args: replayArgs(taskId, '--run-commands-unconfined'), env: { PATH: '/nonexistent' } });
    assert.equal(unconfined.code, 0, unconfined.stderr);
    const u = JSON.parse(unconfined.stdout) as ReplayComparison;
    assert.equal(u.commands, 'unconfined');
    assert.match(unconfined.stderr, /The replay's commands run unconfined \(--run-commands-unconfined\)/);
    assert.equal(readFileSync(join(u.workspace, 'inside.txt'), 'utf8'), 'inside\n');
  });
});
