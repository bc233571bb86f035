import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

describe('read_file', () => {
  let ws: TempWorkspace;
  let harness: ToolHarness;
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
  });
  afterEach(() => ws.dispose());

  test('returns numbered lines', async () => {
    ws.write('a.txt', 'one\ntwo\nthree\n');
    const outcome = await harness.run(readFileTool, { path: 'a.txt' });
    assert.deepEqual(outcome.kind === 'result' && outcome.output, '1 | one\n2 | two\n3 | three');
  });

  test('reads a line range with aligned numbers and notes the rest', async () => {
    ws.write('b.txt', Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n'));
    const outcome = await harness.run(readFileTool, { path: 'b.txt', start_line: '9', end_line: '10' });
    assert.equal(outcome.kind, 'result');
    assert.equal(outcome.kind === 'result' && outcome.output, ' 9 | line 9\n10 | line 10\n\n[Showing lines 9-10 of 12. Use start_line/end_line to read more.]');
  });

  test('strips a BOM and reads CRLF files as lines', async () => {
    ws.write('c.txt', '\uFEFFalpha\r\nbeta\r\n');
    const outcome = await harness.run(readFileTool, { path: 'c.txt' });
    assert.deepEqual(outcome.kind === 'result' && outcome.output, '1 | alpha\n2 | beta');
  });

  test('refuses binary files with a clear message', async () => {
    ws.write('img.png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    const outcome = await harness.run(readFileTool, { path: 'img.png' });
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.kind === 'error' ? outcome.error : '', /img\.png is a binary file/);
  });

  test("reports a missing file as the model's mistake", async () => {
    const outcome = await harness.run(readFileTool, { path: 'nope.txt' });
    assert.deepEqual(outcome.kind === 'error' && [outcome.mistake, /File not found: nope\.txt/.test(outcome.error)], [true, true]);
  });

  test('rejects a malformed range', async () => {
    ws.write('a.txt', 'x\n');
    const outcome = await harness.run(readFileTool, { path: 'a.txt', start_line: 'two' });
    assert.match(outcome.kind === 'error' ? outcome.error : '', /start_line must be a positive whole number/);
    const reversed = await harness.run(readFileTool, { path: 'a.txt', start_line: '3', end_line: '1' });
    assert.match(reversed.kind === 'error' ? reversed.error : '', /end_line \(1\) is before start_line \(3\)/);
  });

  test('asks before reading outside the workspace, through ../ and through a symlink', async () => {
    const outside = createTempWorkspace('smith-outside-');
    try {
      outside.write('secret.txt', 'top secret\n');
      symlinkSync(outside.root, join(ws.root, 'link'));
      harness.answers = [{ approved: false, feedback: 'stay in the project' }, { approved: false }];
      const viaLink = await harness.run(readFileTool, { path: 'link/secret.txt' });
      assert.deepEqual(viaLink, { kind: 'rejected', feedback: 'stay in the project' });
      const viaAbsolute = await harness.run(readFileTool, { path: join(outside.root, 'secret.txt') });
      assert.deepEqual(viaAbsolute, { kind: 'rejected', feedback: undefined });
      assert.equal(harness.asked.length, 2);
      assert.match(harness.asked[0]!.summary, /secret\.txt/);
    } finally {
      outside.dispose();
    }
  });
});
