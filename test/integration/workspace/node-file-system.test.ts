import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { NodeFileSystem, READ_CHUNK_BYTES } from '../../../src/core/workspace/node-file-system.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const all: Uint8Array[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

describe('NodeFileSystem: stat and chunked reads', () => {
  let ws: TempWorkspace;
  const files = new NodeFileSystem();
  beforeEach(() => (ws = createTempWorkspace()));
  afterEach(() => ws.dispose());

  test('stat names what a path is, and nothing for a missing path', async () => {
    const file = ws.write('a.txt', 'hello');
    mkdirSync(join(ws.root, 'dir'));
    execFileSync('mkfifo', [join(ws.root, 'pipe')]);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(ws.root, 'sock'), resolve));
    try {
      const info = await files.stat(file);
      assert.equal(info?.type, 'file');
      assert.equal(info?.size, 5);
      assert.equal((await files.stat(join(ws.root, 'dir')))?.type, 'directory');
      assert.equal((await files.stat(join(ws.root, 'pipe')))?.type, 'fifo');
      assert.equal((await files.stat(join(ws.root, 'sock')))?.type, 'socket');
      assert.equal((await files.stat('/dev/null'))?.type, 'device');
      assert.equal(await files.stat(join(ws.root, 'missing')), undefined);
      assert.equal(await files.stat(join(file, 'below-a-file')), undefined);
    } finally {
      server.close();
    }
  });

  test('reads in chunks no larger than asked for, in order', async () => {
    const content = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    const path = ws.write('data.bin', content);
    const chunks = await collect(files.readChunks(path));
    assert.ok(chunks.every((c) => c.byteLength <= READ_CHUNK_BYTES));
    assert.ok(chunks.length >= 4);
    assert.deepEqual(Buffer.concat(chunks), content);
    const small = await collect(files.readChunks(path, { chunkSize: 1000 }));
    assert.equal(small.length, 200);
    assert.deepEqual(Buffer.concat(small), content);
  });

  test('a FIFO is refused on open without waiting for a writer, even without a stat first', { timeout: 30_000 }, async () => {
    const fifo = join(ws.root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    try {
      await assert.rejects(collect(files.readChunks(fifo)), /is not a regular file \(it is a fifo\)/);
    } finally {
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No reader waits.
      }
    }
  });

  test('an aborted signal stops the read with its reason', async () => {
    const path = ws.write('big.txt', 'x'.repeat(READ_CHUNK_BYTES * 4));
    const abort = new AbortController();
    let chunks = 0;
    await assert.rejects(
      (async () => {
        for await (const _chunk of files.readChunks(path, { signal: abort.signal })) {
          chunks++;
          abort.abort(new Error('stopped by the user'));
        }
      })(),
      /stopped by the user/,
    );
    assert.equal(chunks, 1);
    const already = new AbortController();
    already.abort(new Error('before the start'));
    await assert.rejects(collect(files.readChunks(path, { signal: already.signal })), /before the start/);
  });

  test('stopping early closes the file', async () => {
    const path = ws.write('big.txt', 'y'.repeat(READ_CHUNK_BYTES * 3));
    for await (const chunk of files.readChunks(path)) {
      assert.equal(chunk.byteLength, READ_CHUNK_BYTES);
      break;
    }
    const open = readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
    assert.deepEqual(open, [], 'a descriptor of the file is still open');
  });
});
