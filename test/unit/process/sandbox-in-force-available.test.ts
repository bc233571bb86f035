// Where bubblewrap works, a view may say "sandboxed" once the check a task makes has answered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findSandbox, sandboxInForceCheck } from '../../../src/core/process/task-sandbox.js';

test('the sandbox is in force once the check answered, where bubblewrap works', async (t) => {
  const found = await findSandbox();
  if ('reason' in found) return t.skip(found.reason);
  const sandboxInForce = sandboxInForceCheck();
  await new Promise<void>((resolve) => sandboxInForce(true, resolve));
  assert.equal(sandboxInForce(true), true);
  assert.equal(sandboxInForce(false), false);
});
