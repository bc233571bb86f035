// `smith preview-command` for real: the built CLI, bubblewrap, a real shell. It prints what the
// command would change, never changes the workspace, and says why when no preview is possible.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { findSandbox } from '../../../src/core/process/task-sandbox.js';
import { runCli } from '../../helpers/cli-runner.js';
import { folderFingerprint } from '../../helpers/folder-fingerprint.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = createTempWorkspace('smith-cli-preview-');
  ws.write('notes.txt', 'one\ntwo\n');
  ws.write('old.txt', 'old\n');
});
afterEach(() => ws.dispose());

test('prints what the command would create, change and delete, and the patch; the workspace stays as it was', async (t) => {
  const found = await findSandbox();
  if ('reason' in found) return t.skip(found.reason);
  const before = folderFingerprint(ws.root);
  const run = await runCli({
    args: ['preview-command', '--cwd', ws.root, '--patch', '--', 'echo three >> notes.txt && echo new > new.txt && rm old.txt && echo done'],
    timeoutMs: 120_000,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(folderFingerprint(ws.root), before);
  assert.match(run.stdout, /^1 created, 1 changed, 1 deleted \(\+2 -1 lines\); exit code 0$/m);
  assert.match(run.stdout, /^created {2}new\.txt \(\+1 -0\)$/m);
  assert.match(run.stdout, /^changed {2}notes\.txt \(\+1 -0\)$/m);
  assert.match(run.stdout, /^deleted {2}old\.txt \(\+0 -1\)$/m);
  assert.match(run.stdout, /^\+three$/m);
  assert.match(run.stdout, /^done$/m);
});

test('--output json gives the whole preview; a remote effect is named and exits 1', async (t) => {
  const found = await findSandbox();
  if ('reason' in found) return t.skip(found.reason);
  const run = await runCli({ args: ['preview-command', '--cwd', ws.root, '--output', 'json', '--', 'touch x;', 'git', 'push'], timeoutMs: 120_000 });
  assert.equal(run.code, 1, run.stderr);
  const preview = JSON.parse(run.stdout) as { ran: boolean; notPreviewable: Array<{ code: string; detail: string }> };
  assert.equal(preview.ran, false);
  assert.deepEqual(
    preview.notPreviewable.map((r) => r.code),
    ['remote-effect'],
  );
  assert.equal(existsSync(join(ws.root, 'x')), false);
});

test('--timeout stops an endless command and says so', async (t) => {
  const found = await findSandbox();
  if ('reason' in found) return t.skip(found.reason);
  const run = await runCli({ args: ['preview-command', '--cwd', ws.root, '--timeout', '2', '--', 'while true; do date > t.txt; done'], timeoutMs: 120_000 });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stdout, /timed out/);
  assert.match(run.stdout, /not previewable \(timed-out\): it did not end within 2 s/);
});

test('without bubblewrap on PATH: unavailable with the reason, and nothing runs', async () => {
  // A PATH with only a shell and node: no bwrap.
  const bin = mkdtempSync(join(tmpdir(), 'smith-cli-preview-bin-'));
  try {
    symlinkSync('/bin/sh', join(bin, 'sh'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const marker = join(ws.root, 'ran');
    const run = await runCli({ args: ['preview-command', '--cwd', ws.root, '--', `touch ${marker}`], env: { PATH: bin }, timeoutMs: 120_000 });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^Preview unavailable: the command sandbox needs bubblewrap \(bwrap\), which is not installed/m);
    assert.equal(existsSync(marker), false);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});

test('usage errors: no command, a bad timeout', async () => {
  const none = await runCli({ args: ['preview-command', '--cwd', ws.root] });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /needs a command after --/);
  const bad = await runCli({ args: ['preview-command', '--timeout', 'soon', '--', 'true'] });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--timeout must be a number of seconds/);
});
