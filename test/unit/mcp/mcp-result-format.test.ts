import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpLogBuffer } from '../../../src/core/mcp/mcp-log-buffer.js';
import { base64Bytes, formatResourceContents, formatToolResult, MCP_OUTPUT_LIMIT } from '../../../src/core/mcp/mcp-result-format.js';

describe('formatToolResult', () => {
  test('joins text, describes images and audio (keeping image data), inlines embedded resources and lists links', () => {
    const png = Buffer.alloc(300, 1).toString('base64');
    const formatted = formatToolResult({
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'audio', data: Buffer.alloc(10).toString('base64'), mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/octet-stream', blob: Buffer.alloc(5).toString('base64') } },
        { type: 'resource_link', uri: 'file:///c.md', name: 'c.md' },
        { type: 'text', text: 'last' },
      ],
    });
    assert.equal(
      formatted.text,
      'first\n\n[image: image/png, 300 bytes]\n\n[audio: audio/wav, 10 bytes]\n\n[resource: file:///a.txt (text/plain)]\ninline text\n\n[resource: file:///b.bin (application/octet-stream), binary, 5 bytes]\n\nlast\n\nResource links (read them with access_mcp_resource):\n- file:///c.md (c.md)',
    );
    assert.deepEqual(formatted.images, [{ mimeType: 'image/png', data: png }]);
    assert.deepEqual(formatted.links, [{ uri: 'file:///c.md', name: 'c.md' }]);
    assert.equal(formatted.isError, false);
  });

  test('isError is kept; structured content is added unless a text block repeats it; empty results say so', () => {
    assert.deepEqual(formatToolResult({ content: [{ type: 'text', text: 'boom' }], isError: true }), { text: 'boom', isError: true, images: [], links: [] });
    const alone = formatToolResult({ content: [], structuredContent: { t: 21 } });
    assert.equal(alone.text, 'Structured result (JSON):\n{\n  "t": 21\n}');
    assert.equal(alone.structured, '{\n  "t": 21\n}');
    assert.equal(
      formatToolResult({ content: [{ type: 'text', text: 'Sunny.' }], structuredContent: { t: 21 } }).text,
      'Sunny.\n\nStructured result (JSON):\n{\n  "t": 21\n}',
    );
    assert.equal(formatToolResult({ content: [{ type: 'text', text: '{"t":21}' }], structuredContent: { t: 21 } }).text, '{"t":21}');
    assert.equal(formatToolResult({ content: [] }).text, '(the tool returned no content)');
    assert.equal(formatToolResult({ content: [], isError: true }).text, '(the tool reported an error without a message)');
  });

  test('huge output is cut with a note', () => {
    const text = formatToolResult({ content: [{ type: 'text', text: 'x'.repeat(MCP_OUTPUT_LIMIT + 10) }] }).text;
    assert.ok(text.endsWith(`[Output cut at ${MCP_OUTPUT_LIMIT} of ${MCP_OUTPUT_LIMIT + 10} characters.]`));
  });
});

describe('formatResourceContents', () => {
  test('text as is, textual blobs decoded, binary described', () => {
    const text = formatResourceContents({
      contents: [
        { uri: 'a://1', mimeType: 'text/plain', text: 'hello' },
        { uri: 'a://2', mimeType: 'application/json', blob: Buffer.from('{"k":1}').toString('base64') },
        { uri: 'a://3', mimeType: 'image/png', blob: Buffer.alloc(4).toString('base64') },
        { uri: 'a://4', mimeType: 'text/plain', blob: Buffer.from([0xff, 0xfe, 0xfd]).toString('base64') },
      ],
    });
    assert.equal(
      text,
      '[resource: a://1 (text/plain)]\nhello\n\n[resource: a://2 (application/json)]\n{"k":1}\n\n[resource: a://3 (image/png), binary, 4 bytes]\n\n[resource: a://4 (text/plain), binary, 3 bytes]',
    );
    assert.equal(formatResourceContents({ contents: [] }), '(the resource is empty)');
  });

  test('base64Bytes counts padding', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 100]) assert.equal(base64Bytes(Buffer.alloc(n).toString('base64')), n);
  });
});

describe('McpLogBuffer', () => {
  test('keeps the last lines, joins partial chunks, and tails', () => {
    const log = new McpLogBuffer(3);
    log.write('one\ntw');
    log.write('o\nthree\r\nfour\nfiv');
    assert.deepEqual(log.snapshot(), ['two', 'three', 'four', 'fiv']);
    log.push('[info] note');
    assert.deepEqual(log.snapshot(), ['three', 'four', '[info] note', 'fiv']);
    assert.equal(log.tail(2), '[info] note\nfiv');
  });
});
