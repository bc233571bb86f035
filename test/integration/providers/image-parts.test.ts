// Tool images reach each vendor in its own shape, through the real SDKs and the scripted server,
// which records the images it received and refuses them where the real API would.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ProviderConfig, ProviderMessage } from '../../../src/core/providers/types.js';
import type { ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { collectOk, useProviderFixture } from './stream-helpers.js';

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const IMAGE = { type: 'image', mimeType: 'image/png', data: PNG } as const;
const TOOLS = [{ name: 'use_mcp_tool', description: 'Call an MCP tool.', parameters: { type: 'object', properties: {}, required: [] } }] as const;

/** A native call whose result holds an image, then the turn's text. */
function nativeConversation(callId: string): ProviderMessage[] {
  return [
    { role: 'user', content: 'Show me the logo.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: callId, name: 'use_mcp_tool', input: {} }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: callId, name: 'use_mcp_tool', content: 'Here:\n[image: image/png, 70 bytes]', images: [IMAGE] },
        { type: 'text', text: '<environment_details>E</environment_details>' },
      ],
    },
  ];
}

/** The XML protocol's user message: the result text, its image, the environment. */
const XML_CONVERSATION: ProviderMessage[] = [
  { role: 'user', content: 'Show me the logo.' },
  { role: 'assistant', content: '<use_mcp_tool>\n<server_name>s</server_name>\n</use_mcp_tool>' },
  { role: 'user', content: [{ type: 'text', text: 'Result:\n[image: image/png, 70 bytes]' }, IMAGE, { type: 'text', text: 'E' }] },
];

function suite(
  name: string,
  config: (server: ScriptedLlmServer) => ProviderConfig,
  checks: { native(body: any): void; xml(body: any): void; inToolResult: boolean },
) {
  describe(`${name}: tool images in the request`, () => {
    const fx = useProviderFixture(config);

    test('native: the image travels with the tool result', async () => {
      fx.server.enqueue({ text: 'A logo.' });
      await collectOk(fx.provider.createMessage({ systemPrompt: 'S', messages: nativeConversation('call_img_1'), tools: TOOLS }));
      const request = fx.server.requestAt(0);
      assert.deepEqual(
        request!.images.map((i) => ({ mimeType: i.mimeType, data: i.data, inToolResult: i.inToolResult })),
        [{ mimeType: 'image/png', data: PNG, inToolResult: checks.inToolResult }],
      );
      checks.native(request!.body);
    });

    test('XML: the image follows the result text in the user message', async () => {
      fx.server.enqueue({ text: 'A logo.' });
      await collectOk(fx.provider.createMessage({ systemPrompt: 'S', messages: XML_CONVERSATION }));
      const request = fx.server.requestAt(0);
      assert.equal(request!.images.length, 1);
      assert.equal(request!.images[0]!.data, PNG);
      checks.xml(request!.body);
    });
  });
}

suite('Anthropic', (s) => ({ provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', baseUrl: s.anthropicBaseUrl }), {
  inToolResult: true,
  native(body) {
    const result = body.messages.at(-1).content[0];
    assert.equal(result.type, 'tool_result');
    assert.deepEqual(result.content[1], { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } });
  },
  xml(body) {
    assert.deepEqual(
      body.messages.at(-1).content.map((b: any) => b.type),
      ['text', 'image', 'text'],
    );
  },
});

suite('OpenAI', (s) => ({ provider: 'openai', model: 'gpt-4.1', apiKey: 'sk-test', baseUrl: s.openAiBaseUrl }), {
  inToolResult: false,
  native(body) {
    const roles = body.messages.map((m: any) => m.role);
    assert.deepEqual(roles, ['system', 'user', 'assistant', 'tool', 'user']);
    assert.equal(typeof body.messages[3].content, 'string', 'a tool message holds text only');
    assert.deepEqual(body.messages[4].content[1], { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } });
  },
  xml(body) {
    assert.deepEqual(
      body.messages.at(-1).content.map((p: any) => p.type),
      ['text', 'image_url', 'text'],
    );
  },
});

suite('Gemini', (s) => ({ provider: 'gemini', model: 'gemini-2.5-flash', apiKey: 'AIza-test', baseUrl: s.geminiBaseUrl }), {
  inToolResult: false,
  native(body) {
    const parts = body.contents.at(-1).parts;
    assert.ok(parts[0].functionResponse, 'the function response comes first');
    assert.deepEqual(
      parts.find((p: any) => p.inlineData),
      { inlineData: { mimeType: 'image/png', data: PNG } },
    );
  },
  xml(body) {
    assert.deepEqual(
      body.contents.at(-1).parts.map((p: any) => Object.keys(p)[0]),
      ['text', 'inlineData', 'text'],
    );
  },
});

describe('the scripted server refuses images where the real APIs do', () => {
  const fx = useProviderFixture((s) => ({ provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', baseUrl: s.anthropicBaseUrl }));

  test('Anthropic: an image type it does not take is a 400 naming the field', async () => {
    const bmp: ProviderMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', mimeType: 'image/bmp', data: 'Qk0=' },
        ],
      },
    ];
    await assert.rejects(collectOk(fx.provider.createMessage({ systemPrompt: 'S', messages: bmp })), /media_type/);
  });
});
