import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { commandInDirectory, shellSyntax, type ShellSyntax } from '../../../src/core/process/directory-guard.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

function onPath(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

describe('shellSyntax', () => {
  test('names the syntax from the shell path or name', () => {
    assert.equal(shellSyntax('/usr/bin/zsh'), 'posix');
    assert.equal(shellSyntax('bash'), 'posix');
    assert.equal(shellSyntax('/usr/bin/fish'), 'fish');
    assert.equal(shellSyntax('C:\\Program Files\\PowerShell\\7\\pwsh.exe'), 'powershell');
    assert.equal(shellSyntax('powershell'), 'powershell');
    assert.equal(shellSyntax(undefined), 'posix');
  });

  test('PowerShell keeps the command after a successful Set-Location', () => {
    assert.equal(commandInDirectory('powershell', "C:\\it's", 'npm test'), "Set-Location -LiteralPath 'C:\\it''s'; if ($?) { npm test\n}");
  });
});

// Each shell runs the guarded command for real, in a directory whose name needs quoting.
const shells: [string, ShellSyntax][] = [
  ['bash', 'posix'],
  ['zsh', 'posix'],
  ['sh', 'posix'],
  ['fish', 'fish'],
];

describe('commandInDirectory', { skip: process.platform === 'win32' && 'POSIX shells' }, () => {
  let ws: TempWorkspace;
  let awkward: string;
  beforeEach(() => {
    ws = createTempWorkspace();
    awkward = join(ws.root, `it's a "dir" \\ $HOME; é`);
    mkdirSync(awkward);
  });
  afterEach(() => ws.dispose());

  for (const [shell, syntax] of shells) {
    test(`${shell}: runs the command in the directory and keeps its exit code`, {
      skip: !onPath(shell) && `${shell} is not installed (scripts/ensure-test-deps.mjs installs it)`,
    }, () => {
      const line = commandInDirectory(syntax, awkward, 'pwd; echo "a,b"; false');
      const result = spawnSync(shell, ['-c', line], { cwd: ws.root, encoding: 'utf8' });
      assert.equal(result.stdout, `${awkward}\na,b\n`);
      assert.equal(result.status, 1);
    });

    test(`${shell}: a directory that does not exist stops the command with an error`, { skip: !onPath(shell) && `${shell} is not installed` }, () => {
      const line = commandInDirectory(syntax, join(ws.root, 'gone'), 'echo ran');
      const result = spawnSync(shell, ['-c', line], { cwd: ws.root, encoding: 'utf8' });
      assert.equal(result.stdout, '');
      assert.notEqual(result.status, 0);
      assert.match(result.stderr, /gone/);
    });
  }
});
