// What a view says about the sandbox comes from the check a task makes: a bubblewrap that is
// installed but cannot make a sandbox here is no sandbox, so nothing may say "sandboxed".
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sandboxInForceCheck } from '../../../src/core/process/task-sandbox.js';

test('the sandbox is not in force where bubblewrap is installed but cannot make one, nor before the check answered, nor when not asked for', async () => {
  const bin = mkdtempSync(join(tmpdir(), 'smith-broken-bwrap-'));
  writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
  chmodSync(join(bin, 'bwrap'), 0o755);
  const path = process.env.PATH;
  const sandboxInForce = sandboxInForceCheck();
  process.env.PATH = bin;
  try {
    assert.equal(sandboxInForce(false), false);
    const known = new Promise<void>((resolve) => {
      assert.equal(sandboxInForce(true, resolve), false, 'not claimed before the check answered');
    });
    await known;
    assert.equal(sandboxInForce(true), false, 'a bubblewrap that fails its trial is no sandbox');
  } finally {
    process.env.PATH = path;
  }
});
