import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { USAGE } from '../../../src/cli/usage-text.js';
import { CLI_PATH } from '../../helpers/cli-runner.js';

const { version } = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string };

/** Runs a copy of dist/cli.js alone in an empty folder: without dist/cli-main.js beside it. */
function runEntryAlone(args: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'smith-cli-entry-'));
  try {
    copyFileSync(CLI_PATH, join(dir, 'cli.js'));
    return spawnSync(process.execPath, [join(dir, 'cli.js'), ...args], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('CLI start: --help and --version need only the small entry bundle', () => {
  test('--version and -v print the package version without loading the rest of the CLI', () => {
    for (const flag of ['--version', '-v']) {
      const run = runEntryAlone([flag]);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, `${version}\n`);
    }
  });

  test('--help and -h print the usage text, also after a task', () => {
    for (const args of [['--help'], ['-h'], ['fix the bug', '--help']]) {
      const run = runEntryAlone(args);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, `${USAGE}\n`);
    }
  });

  test('anything else loads dist/cli-main.js: usage errors and subcommands are reported by the full CLI', () => {
    const alone = runEntryAlone(['--provider', 'nobody']);
    assert.notEqual(alone.status, 0);
    assert.match(alone.stderr, /cli-main\.js/);
    const bad = spawnSync(process.execPath, [CLI_PATH, '--help', '--provider', 'nobody'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^smith: --provider must be one of .*\nRun smith --help for usage\.\n$/);
    const subcommand = spawnSync(process.execPath, [CLI_PATH, 'mcp-serve', '--cwd', join(tmpdir(), 'smith-no-such-folder')], { encoding: 'utf8' });
    assert.equal(subcommand.status, 2);
    assert.equal(subcommand.stdout, '');
    assert.match(subcommand.stderr, /--cwd folder does not exist/);
    // A subcommand's --help is its own usage (from the full CLI), not the main one.
    const subcommandHelp = spawnSync(process.execPath, [CLI_PATH, 'mcp-serve', '--help', '--cwd', join(tmpdir(), 'smith-no-such-folder')], {
      encoding: 'utf8',
    });
    assert.equal(subcommandHelp.status, 0);
    assert.match(subcommandHelp.stdout, /^Usage: smith mcp-serve /);
  });
});
