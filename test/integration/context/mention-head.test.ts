// An @-mention of a huge or sparse file reads a bounded head: the peak memory of a process that
// attaches a 1 GB file is measured (its own maxRSS), not its time.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { closeSync, openSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

const run = promisify(execFile);
const GIGABYTE = 1024 ** 3;
const LIMIT_KB = 300 * 1024;
const child = join(__dirname, '../../fixtures/expand-mentions-child.ts');

/** Expands `text` in a fresh Node process and returns what it attached and its peak RSS in kB. */
async function expandInChild(cwd: string, text: string): Promise<{ context: string; problems: string[]; maxRssKb: number }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', child, cwd, text], { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout) as { context: string; problems: string[]; maxRssKb: number };
}

describe('@-mention of a huge file', () => {
  let ws: TempWorkspace;
  beforeEach(() => (ws = createTempWorkspace()));
  afterEach(() => ws.dispose());

  test('a 1 GB sparse file is judged from its head and refused as binary, with peak memory far below its size', async () => {
    ws.write('sparse.bin', '');
    truncateSync(join(ws.root, 'sparse.bin'), GIGABYTE);
    const result = await expandInChild(ws.root, 'Look at @sparse.bin');
    assert.deepEqual(result.problems, ['@sparse.bin is a binary file and was not attached.']);
    assert.ok(result.maxRssKb < LIMIT_KB, `peak RSS ${result.maxRssKb} kB`);
  });

  test('a 1 GB file with a text head attaches the bounded head and says so', async () => {
    const path = ws.write('huge.log', '');
    const fd = openSync(path, 'w');
    writeSync(fd, 'log line of text\n'.repeat(20_000));
    closeSync(fd);
    truncateSync(path, GIGABYTE);
    const result = await expandInChild(ws.root, 'Look at @huge.log');
    assert.deepEqual(result.problems, []);
    assert.match(result.context, /<file path="huge\.log">\nlog line of text\n/);
    assert.match(
      result.context,
      new RegExp(
        `\\[@huge\\.log has ${GIGABYTE} bytes: only its first 200000 bytes were read and 50000 characters attached\\. Read the rest with read_file\\.\\]`,
      ),
    );
    assert.ok(result.context.length < 60_000);
    assert.ok(result.maxRssKb < LIMIT_KB, `peak RSS ${result.maxRssKb} kB`);
  });
});
