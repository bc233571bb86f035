import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toAnthropicMessages } from '../../../src/core/providers/anthropic-messages.js';
import { toGeminiContents } from '../../../src/core/providers/gemini-messages.js';
import { normalizeConversation } from '../../../src/core/providers/message-conversion.js';
import { toOpenAiMessages } from '../../../src/core/providers/openai-messages.js';
import type { ProviderMessage } from '../../../src/core/providers/types.js';

const PNG = { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' } as const;

/** A native call whose result returned an image, then the environment text. */
const native: ProviderMessage[] = [
  { role: 'user', content: 'Show me the logo.' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'use_mcp_tool', input: { server_name: 's' } }] },
  {
    role: 'user',
    content: [
      { type: 'tool_result', toolUseId: 'call_1', name: 'use_mcp_tool', content: 'Here:\n[image: image/png, 8 bytes]', images: [PNG] },
      { type: 'text', text: 'ENV' },
    ],
  },
];

/** The XML protocol's user message with an image after the result text. */
const xml: ProviderMessage[] = [
  { role: 'user', content: 'Show me the logo.' },
  { role: 'assistant', content: '<use_mcp_tool>…</use_mcp_tool>' },
  { role: 'user', content: [{ type: 'text', text: 'Result:\n[image: image/png, 8 bytes]' }, PNG, { type: 'text', text: 'ENV' }] },
];

describe("image parts in each vendor's shape", () => {
  test('Anthropic: images inside tool_result.content; XML images as image blocks', () => {
    const nativeMessages = toAnthropicMessages(normalizeConversation(native), false);
    assert.deepEqual(nativeMessages[2], {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_1',
          content: [
            { type: 'text', text: 'Here:\n[image: image/png, 8 bytes]' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.data } },
          ],
        },
        { type: 'text', text: 'ENV' },
      ],
    });
    const xmlMessages = toAnthropicMessages(normalizeConversation(xml), true);
    assert.deepEqual(xmlMessages[2]!.content, [
      { type: 'text', text: 'Result:\n[image: image/png, 8 bytes]' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.data } },
      { type: 'text', text: 'ENV', cache_control: { type: 'ephemeral' } },
    ]);
  });

  test('OpenAI: the tool message stays text; a user message after it carries the image as a data URL', () => {
    const messages = toOpenAiMessages('SYS', native);
    assert.deepEqual(messages.slice(3), [
      { role: 'tool', tool_call_id: 'call_1', content: 'Here:\n[image: image/png, 8 bytes]' },
      {
        role: 'user',
        content: [
          { type: 'text', text: '[Image returned by the use_mcp_tool call call_1:]' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.data}` } },
          { type: 'text', text: 'ENV' },
        ],
      },
    ]);
    assert.deepEqual(toOpenAiMessages('', xml)[2], {
      role: 'user',
      content: [
        { type: 'text', text: 'Result:\n[image: image/png, 8 bytes]' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.data}` } },
        { type: 'text', text: 'ENV' },
      ],
    });
  });

  test('Gemini: inlineData after the function responses; XML images in place', () => {
    const contents = toGeminiContents(native);
    assert.deepEqual(contents[2], {
      role: 'user',
      parts: [
        { functionResponse: { name: 'use_mcp_tool', response: { output: 'Here:\n[image: image/png, 8 bytes]' }, id: 'call_1' } },
        { text: '[Image returned by the use_mcp_tool call:]' },
        { inlineData: { mimeType: 'image/png', data: PNG.data } },
        { text: 'ENV' },
      ],
    });
    assert.deepEqual(toGeminiContents(xml)[2]!.parts, [
      { text: 'Result:\n[image: image/png, 8 bytes]' },
      { inlineData: { mimeType: 'image/png', data: PNG.data } },
      { text: 'ENV' },
    ]);
  });

  test('Gemini leaves out a GIF (it does not take that type) and says so', () => {
    const gif: ProviderMessage[] = [{ role: 'user', content: [{ type: 'image', mimeType: 'image/gif', data: 'R0lGOD' }] }];
    assert.deepEqual(toGeminiContents(gif)[0]!.parts, [{ text: '[An image/gif image was left out: Gemini does not accept that type.]' }]);
  });

  test('text-only messages keep their string shape for every vendor', () => {
    const plain: ProviderMessage[] = [{ role: 'user', content: 'hi' }];
    assert.deepEqual(toOpenAiMessages('', plain), [{ role: 'user', content: 'hi' }]);
    assert.deepEqual(toAnthropicMessages(plain, false), [{ role: 'user', content: 'hi' }]);
    const result: ProviderMessage[] = [
      ...native.slice(0, 2),
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'call_1', name: 'use_mcp_tool', content: 'ok' },
          { type: 'text', text: 'ENV' },
        ],
      },
    ];
    assert.deepEqual(toOpenAiMessages('', result).slice(2), [
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      { role: 'user', content: 'ENV' },
    ]);
    assert.deepEqual(toAnthropicMessages(normalizeConversation(result), false)[2]!.content, [
      { type: 'tool_result', tool_use_id: 'call_1', content: 'ok' },
      { type: 'text', text: 'ENV' },
    ]);
  });
});
