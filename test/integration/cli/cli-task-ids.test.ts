// A task id is a folder name under the storage: every entry point refuses one that could name
// another place (exit 2, a clear error, nothing created), and every command that opens the
// storage first finishes a checkpoint restore a crash interrupted and says what it did.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { CheckpointStore, restoreJournalFileOf } from '../../../src/core/checkpoints/checkpoint-store.js';
import { TaskLog } from '../../../src/core/log/task-log.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { useAgentFixture } from '../../helpers/agent-fixture.js';
import { startCliOnPty } from '../../helpers/cli-pty.js';
import { runCli } from '../../helpers/cli-runner.js';
import { folderFingerprint } from '../../helpers/folder-fingerprint.js';
import { until } from '../../helpers/until.js';

const BAD_IDS = ['../x', 'a/b', '..', '/etc/passwd', 'a\\b', '../../tasks/t', 'x'.repeat(300), '.hidden'];

describe('smith CLI: task ids and interrupted restores', { timeout: 300_000 }, () => {
  const fx = useAgentFixture();

  /** The folder holding the storage: a task id that escapes would show up here. */
  function guarded() {
    // A real task next to where "../x" and "a/b" would land, so an escape would find something to read.
    mkdirSync(join(fx.storage, 'tasks', 'a'), { recursive: true });
    writeFileSync(join(fx.storage, 'x'), 'not a task');
    const parent = dirname(fx.storage);
    return { storage: folderFingerprint(fx.storage), parent: existsSync(join(parent, 'x')) };
  }

  test('smith checkpoints, smith rewind, smith replay and --resume refuse a task id that is not a plain name (exit 2)', async () => {
    const before = guarded();
    for (const id of BAD_IDS) {
      for (const args of [
        ['checkpoints', id, '--storage', fx.storage],
        ['rewind', id, '0', '--storage', fx.storage],
        ['replay', id, '--storage', fx.storage],
        [...fx.cliArgs(), '--resume', id, 'go on'],
      ]) {
        const run = await runCli({ args });
        assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
        assert.match(run.stderr, /invalid task id/, args.join(' '));
      }
    }
    assert.equal(folderFingerprint(fx.storage), before.storage, 'nothing was created or changed in the storage');
    assert.equal(existsSync(join(dirname(fx.storage), 'x')), before.parent);
  });

  test('/resume in the REPL refuses them too, and the REPL goes on', async () => {
    const repl = startCliOnPty([...fx.cliArgs(), '--yes']);
    await repl.type('/resume ../x', 1);
    await repl.waitFor(/invalid task id "\.\.\/x"/);
    await repl.type('/resume a/b', 2);
    await repl.waitFor(/invalid task id "a\/b"/);
    await repl.type('/exit', 3);
    assert.equal(await repl.exited, 0, repl.output);
  });

  /** A restore of fx.ws killed after its first file, leaving its journal. */
  async function interruptedRestore(): Promise<string> {
    fx.ws.write('a.ts', 'a1');
    fx.ws.write('b.ts', 'b1');
    const store = new CheckpointStore({ storageDir: fx.storage, workspaceRoot: fx.ws.root, ignore: NOTHING_IGNORED });
    const first = await store.snapshot();
    fx.ws.write('a.ts', 'a2');
    fx.ws.write('b.ts', 'b2');
    const latest = await store.snapshot();
    const marker = join(fx.storage, 'stopped');
    rmSync(marker, { force: true });
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(__dirname, '../../fixtures/checkpoint-restore-step-child.ts'),
        fx.storage,
        fx.ws.root,
        first.root,
        latest.root,
        'file:1',
        marker,
      ],
      { stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await until(() => existsSync(marker), 'the restore to stop after its first file', 60_000);
    child.kill('SIGKILL');
    await exited;
    assert.equal(existsSync(restoreJournalFileOf(store.dir)), true);
    return store.dir;
  }

  test('the next command of any kind finishes an interrupted restore and says so', async () => {
    TaskLog.create(fx.storage, 'listed');
    const commands: Array<[string, string[]]> = [
      ['smith checkpoints', ['checkpoints', 'listed', '--storage', fx.storage]],
      ['smith rewind', ['rewind', 'listed', '0', '--storage', fx.storage]],
      ['smith --list-models', [...fx.cliArgs(), '--list-models']],
      ['smith replay', ['replay', 'listed', '--storage', fx.storage]],
      ['smith "task"', [...fx.cliArgs(), '--yes', '--max-iterations', '1', 'hello']],
      ['smith --resume', [...fx.cliArgs(), '--resume', 'listed', 'go on']],
    ];
    for (const [name, args] of commands) {
      const storeDir = await interruptedRestore();
      if (name === 'smith "task"') fx.server.enqueue({ text: '<attempt_completion>\n<result>Hi.</result>\n</attempt_completion>' });
      const run = await runCli({ args, cwd: fx.ws.root });
      assert.match(
        run.stderr,
        /A checkpoint restore in .* was interrupted \(Smith stopped while restoring\); it has now been finished\. 1 file restored now \(b\.ts\), 1 file already restored/,
        `${name}: ${run.stderr}`,
      );
      assert.equal(fx.ws.read('a.ts'), 'a1', name);
      assert.equal(fx.ws.read('b.ts'), 'b1', name);
      assert.equal(existsSync(restoreJournalFileOf(storeDir)), false, name);
    }
  });
});
