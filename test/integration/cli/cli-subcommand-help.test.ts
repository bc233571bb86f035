// Every subcommand answers --help (and -h) with its own usage on stdout and exit code 0, whatever
// else is on the line, and never starts its work.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../../helpers/cli-runner.js';

describe('smith SUBCOMMAND --help', () => {
  const storage = mkdtempSync(join(tmpdir(), 'smith-help-'));
  after(() => rmSync(storage, { recursive: true, force: true }));

  const cases: [string[], RegExp][] = [
    [['checkpoints', '--help'], /^Usage: smith checkpoints TASK_ID[\s\S]*smith rewind TASK_ID CHECKPOINT_ID/],
    [['checkpoints', 'some-task', '-h'], /^Usage: smith checkpoints/],
    [['rewind', '--help'], /^Usage: smith checkpoints[\s\S]*--files-only[\s\S]*--conversation-only/],
    [['rewind', 'task', '3', '--force', '--help'], /^Usage: smith checkpoints/],
    [['replay', '--help'], /^Usage: smith replay TASK_ID/],
    [['replay', '-h'], /^Usage: smith replay TASK_ID/],
    [['mcp-serve', '--help'], /^Usage: smith mcp-serve[\s\S]*run_task/],
    [['mcp-serve', '--cwd', '.', '-h'], /^Usage: smith mcp-serve/],
    [['commit-message', '--help'], /^Usage: smith commit-message \[--staged \| --all\]/],
    [['commit-message', '--all', '-h'], /^Usage: smith commit-message/],
    [['acp', '--help'], /^Usage: smith acp \[options\][\s\S]*Agent Client Protocol/],
  ];
  for (const [args, usage] of cases) {
    test(`smith ${args.join(' ')}`, async () => {
      const run = await runCli({ args: [...args, '--storage', storage], stdin: '' });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, usage);
      assert.equal(run.stderr, '');
      assert.deepEqual(readdirSync(storage), [], 'nothing was run');
    });
  }
});
