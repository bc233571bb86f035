import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { formatToolResult } from '../../../src/core/mcp/mcp-result-format.js';
import type { Base64Image } from '../../../src/core/providers/types.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { TaskLog, taskDir } from '../../../src/core/log/task-log.js';
import { runToolCall } from '../../../src/core/task/tool-call-runner.js';
import { TOOL_RESULT_IMAGE_BYTES, limitToolImages } from '../../../src/core/tool-kit/tool-images.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import type { ToolContext, ToolHandler } from '../../../src/core/tool-kit/tool-spec.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

/** Base64 of `bytes` zero bytes. */
const image = (mimeType: string, bytes: number): Base64Image => ({ mimeType, data: Buffer.alloc(bytes).toString('base64') });

describe('limitToolImages', () => {
  test('keeps the types models take, normalising image/jpg and data URLs', () => {
    const { images, note } = limitToolImages([
      image('image/png', 10),
      { mimeType: 'IMAGE/JPG', data: `data:image/jpeg;base64,${Buffer.alloc(4).toString('base64')}` },
    ]);
    assert.deepEqual(images, [image('image/png', 10), image('image/jpeg', 4)]);
    assert.equal(note, '');
  });

  test('drops other types and what exceeds the per-result limit, and says what went', () => {
    const half = Math.floor(TOOL_RESULT_IMAGE_BYTES / 2);
    const { images, note } = limitToolImages([
      image('image/svg+xml', 10),
      image('image/png', half),
      image('image/png', half + 10),
      image('image/webp', 100),
      image('image/bmp', 3),
    ]);
    assert.deepEqual(
      images.map((i) => i.mimeType),
      ['image/png', 'image/webp'],
    );
    assert.equal(
      note,
      '\n\n[Not shown to you: 2 images of a type models do not accept (image/svg+xml, image/bmp); 1 image (2.5 MB) over the 5 MB limit for the images of one tool result.]',
    );
  });
});

describe('formatToolResult collects images for vision models', () => {
  test('image blocks and embedded image resources, each still described in the text', () => {
    const png = Buffer.alloc(3).toString('base64');
    const formatted = formatToolResult({
      content: [
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///shot.webp', mimeType: 'image/webp', blob: png } },
      ],
    });
    assert.deepEqual(formatted.images, [
      { mimeType: 'image/png', data: png },
      { mimeType: 'image/webp', data: png },
    ]);
    assert.equal(formatted.text, '[image: image/png, 3 bytes]\n\n[resource: file:///shot.webp (image/webp), binary, 3 bytes]');
  });
});

describe('runToolCall with a tool that returns images', () => {
  const storage = mkdtempSync(join(tmpdir(), 'smith-tool-images-'));
  after(() => rmSync(storage, { recursive: true, force: true }));
  const seen: Array<boolean | undefined> = [];
  const screenshot: ToolHandler = {
    spec: { name: 'screenshot', description: 'd', params: [], example: '<screenshot>\n</screenshot>', group: 'read' },
    async execute(_params, context: ToolContext) {
      seen.push(context.modelSupportsImages);
      return { kind: 'result', output: 'A screenshot [image: image/png]', images: [image('image/png', 8), image('image/tiff', 8)] };
    },
  };

  async function run(taskId: string, modelSupportsImages: boolean) {
    const log = TaskLog.create(storage, taskId, () => 1);
    const harness = new ToolHarness(storage);
    await runToolCall(
      { kind: 'tool', name: 'screenshot', params: {}, partial: false },
      {
        log,
        tools: new ToolRegistry([screenshot]),
        host: harness.host,
        cwd: storage,
        policy: APPROVE_ALL_POLICY,
        ignore: NOTHING_IGNORED,
        signal: new AbortController().signal,
        modelSupportsImages,
        onProgress: () => {},
      },
      0,
    );
    return log;
  }

  test('a vision model: the tool is told, and the logged result keeps the images it may, with a note', async () => {
    const log = await run('vision', true);
    const result = log.events.find((e) => e.type === 'tool_result');
    assert.deepEqual(result?.type === 'tool_result' && result.images, [image('image/png', 8)]);
    assert.equal(
      result?.type === 'tool_result' && result.output,
      'A screenshot [image: image/png]\n\n[Not shown to you: 1 image of a type models do not accept (image/tiff).]',
    );
    // Base64 in the JSONL log: a reopened task still has its images.
    assert.match(readFileSync(join(taskDir(storage, 'vision'), 'events.jsonl'), 'utf8'), /"images":\[\{"mimeType":"image\/png","data":"AAAAAAAAAAA="\}\]/);
    assert.equal(seen.at(-1), true);
  });

  test('a model without vision: no images are logged, whatever the tool returned', async () => {
    const log = await run('text-only', false);
    const result = log.events.find((e) => e.type === 'tool_result');
    assert.equal(result?.type === 'tool_result' && result.images, undefined);
    assert.equal(result?.type === 'tool_result' && result.output, 'A screenshot [image: image/png]');
    assert.equal(seen.at(-1), undefined);
  });
});

describe('read_file on an image', () => {
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const ws = createTempWorkspace('smith-read-image-');
  after(() => ws.dispose());

  test('a vision model gets the image; other models get the binary-file error', async () => {
    ws.write('shot.png', PNG);
    ws.write('data.bin', Buffer.from([0, 1, 2, 3]));
    const harness = new ToolHarness(ws.root);
    const blind = await harness.run(readFileTool, { path: 'shot.png' });
    assert.deepEqual(blind, { kind: 'error', error: 'shot.png is a binary file; read_file only reads text files.', mistake: true });
    harness.modelSupportsImages = true;
    const seen = await harness.run(readFileTool, { path: 'shot.png' });
    assert.deepEqual(seen, {
      kind: 'result',
      output: `shot.png is an image (image/png, ${PNG.length} bytes); it is attached for you to see.`,
      images: [{ mimeType: 'image/png', data: PNG.toString('base64') }],
    });
    const notImage = await harness.run(readFileTool, { path: 'data.bin' });
    assert.deepEqual(notImage, {
      kind: 'error',
      error: 'data.bin is a binary file; read_file reads text files and images: data.bin is not a PNG, JPEG, GIF or WebP image.',
      mistake: true,
    });
  });
});
