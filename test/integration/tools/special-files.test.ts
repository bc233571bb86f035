import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import type { ToolHandler } from '../../../src/core/tool-kit/tool-spec.js';
import { writeToFileTool } from '../../../src/core/tools/write-to-file.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { CountingFileSystem } from '../../helpers/counting-file-system.js';

const TOOLS: ReadonlyArray<[ToolHandler, Record<string, string>]> = [
  [readFileTool, {}],
  [writeToFileTool, { content: 'new\n' }],
  [replaceInFileTool, { diff: '------- SEARCH\na\n=======\nb\n+++++++ REPLACE' }],
];

describe('file tools on what is not a regular file', () => {
  let ws: TempWorkspace;
  let files: CountingFileSystem;
  let harness: ToolHarness;
  let cleanup: Array<() => void>;
  beforeEach(() => {
    ws = createTempWorkspace();
    files = new CountingFileSystem();
    harness = new ToolHarness(ws.root, files);
    cleanup = [];
  });
  afterEach(() => {
    for (const step of cleanup) step();
    ws.dispose();
  });

  /** Runs every file tool on `path`; each must refuse with `message` before reading a byte. */
  async function expectRefused(path: string, message: RegExp): Promise<void> {
    for (const [tool, params] of TOOLS) {
      const outcome = await harness.run(tool, { path, ...params });
      assert.equal(outcome.kind, 'error', `${tool.spec.name}: ${JSON.stringify(outcome)}`);
      assert.match(outcome.kind === 'error' ? outcome.error : '', message, tool.spec.name);
      assert.equal(outcome.kind === 'error' && outcome.mistake, true);
    }
    assert.equal(files.bytesRead, 0);
    assert.equal(harness.asked.length, 0, 'nothing to approve for a refused path');
  }

  test('a FIFO is refused at once, without waiting for a writer', { timeout: 30_000 }, async () => {
    const fifo = join(ws.root, 'events.pipe');
    execFileSync('mkfifo', [fifo]);
    // Should a reader block on the pipe anyway, a writer's open and close ends its wait.
    cleanup.push(() => {
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No reader: nothing waits.
      }
    });
    await expectRefused('events.pipe', /^events\.pipe is a named pipe \(FIFO\), not a regular file/);
  });

  test('a unix socket in the workspace is refused', async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(join(ws.root, 'app.sock'), resolve));
    cleanup.push(() => server.close());
    await expectRefused('app.sock', /^app\.sock is a socket, not a regular file/);
  });

  test('devices are refused, also through a symlink', async () => {
    // The link resolves to the device, which is what the message names.
    symlinkSync('/dev/null', join(ws.root, 'null-link'));
    await expectRefused('null-link', /^\/dev\/null is a device, not a regular file/);
    symlinkSync('/dev/zero', join(ws.root, 'zero-link'));
    await expectRefused('zero-link', /^\/dev\/zero is a device, not a regular file/);
    await expectRefused('/dev/zero', /^\/dev\/zero is a device, not a regular file/);
  });

  test('a directory is refused with a pointer to list_files', async () => {
    mkdirSync(join(ws.root, 'src'));
    await expectRefused('src', /^src is a directory, not a file\. Use list_files/);
  });

  test('the edit tools refuse a sparse 1 GiB file without loading it', async () => {
    const path = join(ws.root, 'disk.img');
    writeFileSync(path, '');
    truncateSync(path, 1024 ** 3);
    for (const [tool, params] of TOOLS.slice(1)) {
      const outcome = await harness.run(tool, { path: 'disk.img', ...params });
      assert.match(
        outcome.kind === 'error' ? outcome.error : '',
        /^disk\.img is too large for (write_to_file|replace_in_file) \(1024\.0 MB; the limit is 16\.0 MB\)/,
      );
    }
    assert.equal(files.bytesRead, 0);
  });

  test('the edit tools judge a binary file from its first bytes', async () => {
    const path = join(ws.root, 'blob.bin');
    writeFileSync(path, Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0]), Buffer.alloc(4 * 1024 * 1024, 1)]));
    const outcome = await harness.run(replaceInFileTool, { path: 'blob.bin', diff: '------- SEARCH\na\n=======\nb\n+++++++ REPLACE' });
    assert.deepEqual(outcome, { kind: 'error', error: 'blob.bin is a binary file; replace_in_file only edits text files.', mistake: true });
    assert.equal(files.chunksRead, 1);
  });
});
