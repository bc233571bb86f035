import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { REDACTED } from '../../../src/core/secrets/secret-redactor.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import { writeToFileTool } from '../../../src/core/tools/write-to-file.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

// The model sees a secret in a file as the placeholder; writing the placeholder back must never
// replace the user's real secret.
describe('edits that would write the redaction placeholder over a secret', () => {
  let ws: TempWorkspace;
  let harness: ToolHarness;
  const env = 'API_KEY=sk-real-secret-value\nDEBUG=0\n';
  beforeEach(async () => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
    harness.policy = APPROVE_ALL_POLICY;
    ws.write('.env', env);
    assert.equal((await harness.run(readFileTool, { path: '.env' })).kind, 'result');
  });
  afterEach(() => ws.dispose());

  test('write_to_file is refused and the file keeps its secret', async () => {
    const outcome = await harness.run(writeToFileTool, { path: '.env', content: `API_KEY=${REDACTED}\nDEBUG=1\n` });
    assert.equal(outcome.kind, 'error', JSON.stringify(outcome));
    assert.match(outcome.kind === 'error' ? outcome.error : '', /stands for a secret.*Nothing was written.*replace_in_file/s);
    assert.equal(ws.read('.env'), env);
  });

  test('replace_in_file that puts the placeholder in is refused', async () => {
    const diff = `------- SEARCH\nDEBUG=0\n=======\nDEBUG=1\nOTHER_KEY=${REDACTED}\n+++++++ REPLACE`;
    const outcome = await harness.run(replaceInFileTool, { path: '.env', diff });
    assert.equal(outcome.kind, 'error', JSON.stringify(outcome));
    assert.equal(ws.read('.env'), env);
  });

  test('an edit around the secret goes through', async () => {
    const outcome = await harness.run(replaceInFileTool, { path: '.env', diff: '------- SEARCH\nDEBUG=0\n=======\nDEBUG=1\n+++++++ REPLACE' });
    assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
    assert.equal(ws.read('.env'), 'API_KEY=sk-real-secret-value\nDEBUG=1\n');
  });

  test('a file that already holds the placeholder text can still be edited', async () => {
    ws.write('notes.md', `Keys show as ${REDACTED} in logs.\n`);
    assert.equal((await harness.run(readFileTool, { path: 'notes.md' })).kind, 'result');
    const outcome = await harness.run(writeToFileTool, { path: 'notes.md', content: `Keys show as ${REDACTED} in logs and output.\n` });
    assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
  });
});
