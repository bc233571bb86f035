import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { READ_FILE_DEFAULT_LINES, READ_FILE_MAX_CHARS, readFileTool } from '../../../src/core/tools/read-file.js';
import { READ_CHUNK_BYTES } from '../../../src/core/workspace/node-file-system.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { CountingFileSystem } from '../../helpers/counting-file-system.js';

/** Room for the note that follows the capped lines. */
const NOTE_ROOM = 700;

describe('read_file on large files', () => {
  let ws: TempWorkspace;
  let files: CountingFileSystem;
  let harness: ToolHarness;
  beforeEach(() => {
    ws = createTempWorkspace();
    files = new CountingFileSystem();
    harness = new ToolHarness(ws.root, files);
  });
  afterEach(() => ws.dispose());

  const outputOf = (outcome: Awaited<ReturnType<ToolHarness['run']>>): string => {
    assert.equal(outcome.kind, 'result', JSON.stringify(outcome).slice(0, 500));
    return outcome.kind === 'result' ? outcome.output : '';
  };

  test('a sparse 1 GiB file is found binary from its first chunk, never read whole', async () => {
    const path = join(ws.root, 'disk.img');
    writeFileSync(path, '');
    truncateSync(path, 1024 ** 3);
    const outcome = await harness.run(readFileTool, { path: 'disk.img' });
    assert.deepEqual(outcome, { kind: 'error', error: 'disk.img is a binary file; read_file only reads text files.', mistake: true });
    assert.ok(files.bytesRead <= READ_CHUNK_BYTES, `read ${files.bytesRead} bytes`);
  });

  test('one huge line is cut at the character cap with a note on how to see the rest', async () => {
    const line = 'x'.repeat(3_000_000);
    ws.write('min.js', `${line}\nconsole.log(1);\n`);
    const output = outputOf(await harness.run(readFileTool, { path: 'min.js' }));
    assert.ok(output.length <= READ_FILE_MAX_CHARS + NOTE_ROOM, `output has ${output.length} characters`);
    assert.ok(output.startsWith('1 | xxxx'));
    assert.match(
      output,
      /\[Line 1 has 3000000 characters; only its first \d+ are shown, as read_file output is capped at 50000 characters\. read_file cannot show the rest of this line: use search_files .* Continue with start_line=2\.\]$/,
    );
    assert.doesNotMatch(output, /console\.log/);
    // Read in bounded chunks, never whole.
    assert.ok(files.largestChunk <= READ_CHUNK_BYTES);
    assert.ok(files.chunksRead > 1);
    const next = outputOf(await harness.run(readFileTool, { path: 'min.js', start_line: '2' }));
    assert.equal(next, '2 | console.log(1);');
  });

  test('many long lines stop at the character cap; start_line reads on until every line was seen', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1} ${'y'.repeat(80)}`);
    ws.write('log.txt', `${lines.join('\n')}\n`);
    const seen: string[] = [];
    let start = 1;
    for (let reads = 0; start <= lines.length; reads++) {
      assert.ok(reads < 20, 'read_file never reached the end');
      const output = outputOf(await harness.run(readFileTool, { path: 'log.txt', start_line: String(start) }));
      assert.ok(output.length <= READ_FILE_MAX_CHARS + NOTE_ROOM, `output has ${output.length} characters`);
      const [body, note] = output.split('\n\n[');
      for (const numbered of body!.split('\n')) {
        const match = /^\s*(\d+) \| (.*)$/.exec(numbered);
        assert.ok(match, numbered);
        assert.equal(Number(match[1]), seen.length + 1);
        seen.push(match[2]!);
      }
      if (note === undefined) break;
      assert.match(note, /^Showing lines \d+-\d+ of 3000; read_file output is capped at 50000 characters\. Read the rest with start_line=(\d+)/);
      start = Number(/start_line=(\d+)/.exec(note)![1]);
      assert.equal(start, seen.length + 1);
    }
    assert.deepEqual(seen, lines);
  });

  test('short lines still stop at the default line count, with the paging note', async () => {
    ws.write('short.txt', Array.from({ length: READ_FILE_DEFAULT_LINES + 5 }, (_, i) => `${i + 1}`).join('\n'));
    const output = outputOf(await harness.run(readFileTool, { path: 'short.txt' }));
    assert.match(
      output,
      new RegExp(`\\n\\n\\[Showing lines 1-${READ_FILE_DEFAULT_LINES} of ${READ_FILE_DEFAULT_LINES + 5}\\. Use start_line/end_line to read more\\.\\]$`),
    );
  });

  test('the read stops when the task is aborted', async () => {
    ws.write('big.txt', `${'z'.repeat(99)}\n`.repeat(20_000));
    const abort = new AbortController();
    files.onChunk = () => abort.abort(new Error('user pressed Ctrl+C'));
    await assert.rejects(harness.run(readFileTool, { path: 'big.txt' }, abort.signal), /Ctrl\+C/);
    assert.ok(files.chunksRead <= 2, `read ${files.chunksRead} chunks after the abort`);
  });

  test("the result carries the file's size, modification time and content hash", async () => {
    const content = 'alpha\nbeta\n';
    const path = ws.write('s.txt', content);
    const outcome = await harness.run(readFileTool, { path: 's.txt', start_line: '2', end_line: '2' });
    assert.deepEqual(outcome.kind === 'result' && outcome.details, {
      file: { path, size: 11, mtimeMs: statSync(path).mtimeMs, sha256: createHash('sha256').update(content).digest('hex') },
      read: { path: 's.txt', firstLine: 2, lastLine: 2, totalLines: 2, truncated: false },
    });
  });

  test('an empty file says so', async () => {
    ws.write('empty.txt', '');
    assert.equal(outputOf(await harness.run(readFileTool, { path: 'empty.txt' })), '(empty.txt is empty.)');
  });
});
