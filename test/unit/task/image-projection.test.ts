import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CONTEXT_IMAGE_BYTES } from '../../../src/core/context/image-budget.js';
import { IMAGE_TOKEN_ESTIMATE, estimateRequestTokens } from '../../../src/core/context/token-estimate.js';
import type { ToolUseBlock } from '../../../src/core/parse/types.js';
import type { ProviderMessage } from '../../../src/core/providers/types.js';
import { IMAGES_LEFT_OUT_NOTE, apiProjection } from '../../../src/core/task/api-projection.js';
import type { NewEvent, TaskEvent } from '../../../src/core/log/events.js';
import { uiProjection } from '../../../src/core/task/ui-projection.js';

function log(...events: NewEvent[]): TaskEvent[] {
  return events.map((event, seq) => ({ ...event, seq, ts: 1000 + seq }) as TaskEvent);
}

const usage = { inputTokens: 1, outputTokens: 1 };
const started: NewEvent = {
  type: 'task_started',
  taskId: 't',
  task: 'Look at it',
  cwd: '/w',
  provider: 'anthropic',
  model: 'm',
  mode: 'act',
  modeSlug: 'code',
};
const PNG = { mimeType: 'image/png', data: 'iVBORw0KGgo=' };
const OUTPUT = 'Here it is:\n\n[image: image/png, 8 bytes]';
const params = { server_name: 'everything', tool_name: 'get-tiny-image' };
const xmlCall: ToolUseBlock = { kind: 'tool', name: 'use_mcp_tool', params, partial: false };
const nativeCall: ToolUseBlock = { ...xmlCall, id: 'toolu_1' };

/** A task that called an image tool, then made its next request. */
function imageTask(call: ToolUseBlock, images: NewEvent[] = []): TaskEvent[] {
  return log(
    started,
    { type: 'request_started', environmentDetails: 'ENV1' },
    { type: 'model_response', text: 'Getting it.', reasoning: '', blocks: [{ kind: 'text', text: 'Getting it.', partial: false }, call], usage },
    { type: 'tool_requested', callId: 'c1', tool: 'use_mcp_tool', params, ...(call.id ? { toolUseId: call.id } : {}) },
    { type: 'tool_result', callId: 'c1', tool: 'use_mcp_tool', output: OUTPUT, images: [PNG] },
    ...images,
    { type: 'request_started', environmentDetails: 'ENV2' },
  );
}

describe('apiProjection with tool images, XML protocol', () => {
  test('the user message becomes text and image parts, the image right after its result', () => {
    const messages = apiProjection(imageTask(xmlCall), { includeImages: true });
    assert.deepEqual(messages[2], {
      role: 'user',
      content: [
        { type: 'text', text: `[use_mcp_tool for 'everything/get-tiny-image'] Result:\n${OUTPUT}` },
        { type: 'image', mimeType: 'image/png', data: PNG.data },
        { type: 'text', text: '<environment_details>\nENV2\n</environment_details>' },
      ],
    });
  });

  test('without includeImages (a model without vision, or a summary request) it is the same text as before, byte for byte', () => {
    const textOnly = apiProjection(imageTask(xmlCall));
    const withoutImagesLogged = apiProjection(
      imageTask(xmlCall).map((e) => (e.type === 'tool_result' ? { ...e, images: undefined } : e)),
      { includeImages: true },
    );
    assert.equal(
      textOnly[2]!.content,
      `[use_mcp_tool for 'everything/get-tiny-image'] Result:\n${OUTPUT}\n\n<environment_details>\nENV2\n</environment_details>`,
    );
    assert.deepEqual(withoutImagesLogged, textOnly);
    assert.deepEqual(apiProjection(imageTask(xmlCall), { toolProtocol: 'xml' }), textOnly);
  });
});

describe('apiProjection with tool images, native protocol', () => {
  test('the tool_result part carries the images; the text follows', () => {
    const messages = apiProjection(imageTask(nativeCall), { toolProtocol: 'native', includeImages: true });
    assert.deepEqual(messages[2], {
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: 'toolu_1', name: 'use_mcp_tool', content: OUTPUT, images: [{ type: 'image', ...PNG }] },
        { type: 'text', text: '<environment_details>\nENV2\n</environment_details>' },
      ],
    });
  });

  test('without includeImages the result is text only', () => {
    const messages = apiProjection(imageTask(nativeCall), { toolProtocol: 'native' });
    assert.deepEqual((messages[2]!.content as readonly unknown[])[0], { type: 'tool_result', toolUseId: 'toolu_1', name: 'use_mcp_tool', content: OUTPUT });
  });
});

describe('the image budget of a request', () => {
  test('the newest images go; older ones are left out with a note, so a long task cannot outgrow the request limits', () => {
    const big = { mimeType: 'image/png', data: 'A'.repeat(Math.ceil((CONTEXT_IMAGE_BYTES * 0.6 * 4) / 3)) };
    const second: NewEvent[] = [
      { type: 'model_response', text: '', reasoning: '', blocks: [xmlCall], usage },
      { type: 'tool_requested', callId: 'c2', tool: 'use_mcp_tool', params },
      { type: 'tool_result', callId: 'c2', tool: 'use_mcp_tool', output: 'second', images: [big] },
    ];
    const events = imageTask(xmlCall, second).map((e) => (e.type === 'tool_result' && e.callId === 'c1' ? { ...e, images: [big] } : e));
    const messages = apiProjection(events, { includeImages: true });
    const user = messages.at(-1)!.content as readonly { type: string; text?: string }[];
    assert.deepEqual(
      user.map((p) => p.type),
      ['text', 'image', 'text'],
    );
    assert.match(user[0]!.text!, /^\[use_mcp_tool for 'everything\/get-tiny-image'\] Result:\nsecond$/);
    assert.equal(messages[2]!.content, `[use_mcp_tool for 'everything/get-tiny-image'] Result:\n${OUTPUT}\n\n${IMAGES_LEFT_OUT_NOTE}`);
  });
});

describe('token estimate of images', () => {
  test('an image counts a fixed estimate, not its base64', () => {
    const huge = { mimeType: 'image/png', data: 'QUJD'.repeat(50_000) };
    const text: ProviderMessage = { role: 'user', content: 'look' };
    const withImage: ProviderMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', ...huge },
      ],
    };
    const inResult: ProviderMessage = {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: 'u',
          name: 'x',
          content: 'look',
          images: [
            { type: 'image', ...huge },
            { type: 'image', ...huge },
          ],
        },
      ],
    };
    const base = estimateRequestTokens('', [text]);
    assert.equal(estimateRequestTokens('', [withImage]), base + IMAGE_TOKEN_ESTIMATE);
    assert.equal(estimateRequestTokens('', [inResult]), base + 2 * IMAGE_TOKEN_ESTIMATE);
  });
});

describe('uiProjection of a result with images', () => {
  test('shows a marker, never the base64', () => {
    const tool = uiProjection(imageTask(xmlCall)).find((m) => m.kind === 'tool');
    assert.equal(tool?.kind === 'tool' ? tool.output : undefined, `${OUTPUT}\n\n[image sent to the model]`);
    assert.ok(!JSON.stringify(uiProjection(imageTask(xmlCall))).includes(PNG.data));
  });
});
