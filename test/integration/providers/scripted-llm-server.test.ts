import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { OpenAI } from 'openai';
import { Anthropic } from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
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
    assert.deepEqual(
      page.data.map((m) => m.id),
      ['scripted-model'],
    );
  });

  test('OpenAI non-streaming completion and the SDK stream helper', async () => {
    server.enqueue({ text: 'plain answer', usage: { input: 5, output: 2 } }, { text: 'streamed answer' });
    const completion = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(completion.choices[0]?.message.content, 'plain answer');
    assert.equal(completion.usage?.prompt_tokens, 5);
    const final = await openai.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } })
      .finalChatCompletion();
    assert.equal(final.choices[0]?.message.content, 'streamed answer');
    assert.equal(final.choices[0]?.finish_reason, 'stop');
  });

  test('Anthropic non-streaming message and the SDK MessageStream helper', async () => {
    server.enqueue({ text: 'plain' }, { text: 'streamed text', reasoning: 'some thinking', usage: { input: 7, output: 11 } });
    const message = await anthropic.messages.create({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['text'],
    );
    const final = await anthropic.messages.stream({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    assert.deepEqual(
      final.content.map((b) => b.type),
      ['thinking', 'text'],
    );
    const text = final.content[1];
    assert.equal(text?.type === 'text' ? text.text : undefined, 'streamed text');
    assert.equal(final.stop_reason, 'end_turn');
    assert.equal(final.usage.output_tokens, 11);
    assert.equal(final.usage.input_tokens, 7);
  });

  test('Gemini generateContent and streamGenerateContent through @google/genai', async () => {
    const gemini = new GoogleGenAI({ apiKey: 'k', vertexai: false, httpOptions: { baseUrl: server.geminiBaseUrl } });
    server.enqueue(
      { text: 'plain gemini', usage: { input: 9, output: 3 } },
      { text: 'streamed gemini', reasoning: 'pondering', usage: { input: 9, output: 5, reasoningTokens: 2 } },
    );
    const plain = await gemini.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' });
    assert.equal(plain.text, 'plain gemini');
    assert.equal(plain.usageMetadata?.promptTokenCount, 9);
    assert.equal(server.requests.at(-1)?.path, '/v1beta/models/gemini-2.5-flash:generateContent');
    const chunks = [];
    for await (const chunk of await gemini.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) chunks.push(chunk);
    const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    assert.equal(
      parts
        .filter((p) => p.thought)
        .map((p) => p.text)
        .join(''),
      'pondering',
    );
    assert.equal(
      parts
        .filter((p) => !p.thought)
        .map((p) => p.text)
        .join(''),
      'streamed gemini',
    );
    const last = chunks.at(-1);
    assert.equal(last?.candidates?.[0]?.finishReason, 'STOP');
    assert.deepEqual([last?.usageMetadata?.candidatesTokenCount, last?.usageMetadata?.thoughtsTokenCount], [5, 2]);
  });

  test('Gemini speaks CRLF-framed SSE and rejects roles other than user and model, like the real API', async () => {
    server.enqueue({ text: 'raw' });
    const streamed = await fetch(`${server.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`, {
      method: 'POST',
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    assert.equal(streamed.headers.get('content-type'), 'text/event-stream');
    assert.match(await streamed.text(), /^data: \{.*\}\r\n\r\n/);
    const badRole = await fetch(`${server.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`, {
      method: 'POST',
      body: JSON.stringify({ contents: [{ role: 'assistant', parts: [{ text: 'hi' }] }] }),
    });
    assert.equal(badRole.status, 400);
    assert.deepEqual(((await badRole.json()) as { error: { status: string } }).error.status, 'INVALID_ARGUMENT');
  });

  test('retryAfterSeconds sets the retry-after header in every format', async () => {
    const routes = [
      ['/v1/chat/completions', { model: 'm', messages: [] }],
      ['/v1/messages', { model: 'm', max_tokens: 5, messages: [] }],
      ['/v1beta/models/g:streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'x' }] }] }],
    ] as const;
    for (const [path, body] of routes) {
      server.enqueue({ fault: 'status', status: 429, retryAfterSeconds: 12 });
      const response = await fetch(`${server.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
      assert.equal(response.status, 429);
      assert.equal(response.headers.get('retry-after'), '12', path);
    }
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
      const info = JSON.parse(firstLine) as { url: string; openAiBaseUrl: string; anthropicBaseUrl: string; geminiBaseUrl: string };
      assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(info.geminiBaseUrl, info.url);
      const provider = createProvider({ provider: 'openai-compatible', model: 'm', baseUrl: info.openAiBaseUrl });
      const result = await collectOk(provider.createMessage({ systemPrompt: 'sys', messages: [{ role: 'user', content: 'hi' }] }));
      assert.equal(result.text, 'from another process');
      const logged = readFileSync(logPath, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
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
