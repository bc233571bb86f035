import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { StreamingToolParser } from '../../../src/core/parse/streaming-tool-parser.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { nativeMissingParams } from '../../../src/core/task/native-tool-calls.js';
import { readFileTool } from '../../../src/core/tools/read-file.js';
import { replaceInFileTool } from '../../../src/core/tools/replace-in-file.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import { missingParams } from '../../../src/core/tool-kit/tool-spec.js';
import { writeToFileTool } from '../../../src/core/tools/write-to-file.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

describe('write_to_file keeps the layout of the file it replaces', () => {
  let ws: TempWorkspace;
  let harness: ToolHarness;
  beforeEach(() => {
    ws = createTempWorkspace();
    harness = new ToolHarness(ws.root);
    harness.policy = APPROVE_ALL_POLICY;
  });
  afterEach(() => ws.dispose());

  /** Writes `before`, lets the model read it, then writes `content` over it; returns the bytes on disk. */
  async function rewrite(before: string, content: string): Promise<string> {
    ws.write('f.txt', before);
    assert.equal((await harness.run(readFileTool, { path: 'f.txt' })).kind, 'result');
    const outcome = await harness.run(writeToFileTool, { path: 'f.txt', content });
    assert.equal(outcome.kind, 'result', JSON.stringify(outcome));
    return ws.read('f.txt');
  }

  test('a BOM and CRLF line endings stay', async () => {
    assert.equal(await rewrite('\uFEFFone\r\ntwo\r\n', 'uno\ndos\ntres\n'), '\uFEFFuno\r\ndos\r\ntres\r\n');
  });

  test('a BOM stays on an LF file, and a BOM the model wrote is not doubled', async () => {
    assert.equal(await rewrite('\uFEFFa\n', 'b\n'), '\uFEFFb\n');
    assert.equal(await rewrite('\uFEFFa\n', '\uFEFFc\n'), '\uFEFFc\n');
  });

  test('a mixed file keeps its majority ending, as replace_in_file does', async () => {
    const written = await rewrite('a\r\nb\r\nc\n', 'x\ny\nz\n');
    assert.equal(written, 'x\r\ny\r\nz\r\n');
    ws.write('g.txt', 'a\r\nb\r\nc\n');
    await harness.run(readFileTool, { path: 'g.txt' });
    await harness.run(replaceInFileTool, { path: 'g.txt', diff: '------- SEARCH\na\nb\nc\n=======\nx\ny\nz\n+++++++ REPLACE' });
    assert.equal(ws.read('g.txt'), written);
  });

  test('CRLF content into an LF file becomes LF', async () => {
    assert.equal(await rewrite('a\nb\n', 'x\r\ny\r\n'), 'x\ny\n');
  });

  test('a file without a final newline keeps having none; a new file gets one', async () => {
    assert.equal(await rewrite('no newline', 'still none\n'), 'still none');
    const created = await harness.run(writeToFileTool, { path: 'new.txt', content: 'fresh' });
    assert.equal(created.kind, 'result');
    assert.equal(ws.read('new.txt'), 'fresh\n');
  });

  test('empty content creates an empty file, and empties an existing one (BOM and all)', async () => {
    const created = await harness.run(writeToFileTool, { path: 'empty.txt', content: '' });
    assert.equal(created.kind === 'result' && created.output, 'The file empty.txt was created successfully.');
    assert.equal(ws.readBytes('empty.txt').byteLength, 0);
    assert.equal(await rewrite('\uFEFFsome\r\ntext\r\n', ''), '');
  });

  test('an empty content parameter is a value, not a missing one (XML and native calls)', () => {
    const parser = new StreamingToolParser(new ToolRegistry([writeToFileTool]).grammar());
    parser.push('<write_to_file>\n<path>empty.txt</path>\n<content>\n</content>\n</write_to_file>');
    const blocks = parser.finish();
    const block = blocks.find((b) => b.kind === 'tool');
    assert.ok(block && block.kind === 'tool');
    assert.equal(block.params.content, '');
    assert.equal(missingParams(writeToFileTool.spec, block), undefined);
    assert.equal(
      nativeMissingParams(writeToFileTool.spec, { kind: 'tool', name: 'write_to_file', params: { path: 'e.txt', content: '' }, partial: false }),
      undefined,
    );
    // Still required: leaving it out, or a blank path, is an error.
    assert.match(missingParams(writeToFileTool.spec, { params: { path: 'e.txt' } }) ?? '', /'content'/);
    assert.match(missingParams(writeToFileTool.spec, { params: { path: ' ', content: '' } }) ?? '', /'path'/);
  });
});
