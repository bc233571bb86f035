import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { OpenAI } from 'openai';
import { Anthropic } from '@anthropic-ai/sdk';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { startScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import type { ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { collectOk } from './stream-helpers.js';

// The fixture itself, checked with the SDKs' own accumulating helpers, which would reject
// events of the wrong shape or order.
describe('scripted LLM server wire formats', () => {
  let server: ScriptedLlmServer;
  let openai: OpenAI;
  let anthropic: Anthropic;
  before(async () => {
    server = await startScriptedLlmServer();
    openai = new OpenAI({ apiKey: 'k', baseURL: server.openAiBaseUrl, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: 'k', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
  });
  after(() => server.close());

  test('GET /v1/models lists models in OpenAI shape', async () => {
    const page = await openai.models.list();
    assert.deepEqual(page.data.map((m) => m.id), ['scripted-model']);
  });

  test('OpenAI non-streaming completion and the SDK stream helper', async () => {
    server.enqueue({ text: 'plain answer', usage: { input: 5, output: 2 } }, { text: 'streamed answer' });
    const completion = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(completion.choices[0].message.content, 'plain answer');
    assert.equal(completion.usage?.prompt_tokens, 5);
    const final = await openai.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } })
      .finalChatCompletion();
    assert.equal(final.choices[0].message.content, 'streamed answer');
    assert.equal(final.choices[0].finish_reason, 'stop');
  });

  test('Anthropic non-streaming message and the SDK MessageStream helper', async () => {
    server.enqueue({ text: 'plain' }, { text: 'streamed text', reasoning: 'some thinking', usage: { input: 7, output: 11 } });
    const message = await anthropic.messages.create({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    assert.deepEqual(message.content.map((b) => b.type), ['text']);
    const final = await anthropic.messages
      .stream({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();
    assert.deepEqual(final.content.map((b) => b.type), ['thinking', 'text']);
    const text = final.content[1];
    assert.equal(text.type === 'text' ? text.text : undefined, 'streamed text');
    assert.equal(final.stop_reason, 'end_turn');
    assert.equal(final.usage.output_tokens, 11);
    assert.equal(final.usage.input_tokens, 7);
  });

  test('a function reply sees the request; a request missing max_tokens is a 400 like the real API', async () => {
    server.enqueue((req) => ({ text: `you said ${req.body.messages[0].content}` }));
    const provider = createProvider({ provider: 'openai', model: 'm', apiKey: 'k', baseUrl: server.openAiBaseUrl });
    const result = await collectOk(provider.createMessage({ systemPrompt: '', messages: [{ role: 'user', content: 'ping' }] }));
    assert.equal(result.text, 'you said ping');
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: { type: string } }).error.type, 'invalid_request_error');
  });
});

describe('scripted LLM server as a separate process', () => {
  test('prints its URL, serves the script and logs requests as JSON lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scripted-llm-'));
    const scriptPath = join(dir, 'script.json');
    const logPath = join(dir, 'requests.jsonl');
    writeFileSync(scriptPath, JSON.stringify([{ text: 'from another process' }]));
    const mainPath = join(__dirname, '../../fixtures/scripted-llm-server-main.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', mainPath, scriptPath, logPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const firstLine = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`server exited early with code ${code}`)));
      });
      const info = JSON.parse(firstLine) as { url: string; openAiBaseUrl: string; anthropicBaseUrl: string };
      assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const provider = createProvider({ provider: 'openai-compatible', model: 'm', baseUrl: info.openAiBaseUrl });
      const result = await collectOk(provider.createMessage({ systemPrompt: 'sys', messages: [{ role: 'user', content: 'hi' }] }));
      assert.equal(result.text, 'from another process');
      const logged = readFileSync(logPath, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      assert.equal(logged.length, 1);
      assert.equal(logged[0].format, 'openai');
      assert.equal(logged[0].body.messages[0].content, 'sys');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
