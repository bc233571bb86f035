// Reasoning a vendor wants back unchanged with the tool calls it led to, through the Task and the
// real SDKs: OpenAI's encrypted reasoning items (Responses API, store: false), Anthropic's signed
// and redacted thinking, Gemini's thought signatures. The scripted server refuses anything it did
// not hand out, as the real APIs do; each case is checked in the same run and after a resume,
// where the history is read back from the task's log on disk.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import type { ProviderConfig } from '../../../src/core/providers/types.js';
import { createTaskEnvironment } from '../../../src/core/session/task-environment.js';
import { DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import { Task } from '../../../src/core/task/task.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { lastTurnItems } from './wire-views.js';

describe('signed reasoning goes back with the calls, also after a resume', () => {
  let server: ScriptedLlmServer;
  let ws: TempWorkspace;
  let storage: string;
  before(async () => (server = await startScriptedLlmServer()));
  after(() => server.close());
  beforeEach(() => {
    ws = createTempWorkspace();
    ws.write('a.txt', 'alpha\n');
    storage = mkdtempSync(join(tmpdir(), 'smith-storage-'));
    server.requests.length = 0;
  });
  afterEach(() => {
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  async function taskOptions(config: Omit<ProviderConfig, 'apiKey' | 'toolProtocol'>) {
    const provider = createProvider({ ...config, apiKey: 'test-key', toolProtocol: 'native' });
    const host = new ToolHarness(ws.root).host;
    const environment = await createTaskEnvironment({ cwd: ws.root, storageDir: storage, host, provider, policy: DEFAULT_POLICY, maxIterations: 10 });
    return { ...environment.options, retry: { maxRetries: 0 } };
  }

  const read = { name: 'read_file', arguments: { path: 'a.txt' } };
  const complete = { toolCalls: [{ name: 'attempt_completion', arguments: { result: 'Done.' } }] };
  // A request the server refuses for good: the task fails after the call ran, and is resumed from its log.
  const refused = { fault: 'status' as const, status: 400 };

  /** Runs the task to the refused second request, resumes it, and returns the second and third requests' bodies. */
  async function callThenResume(
    config: Omit<ProviderConfig, 'apiKey' | 'toolProtocol'>,
    firstReply: object,
  ): Promise<{ live: any; resumed: any; taskId: string }> {
    server.enqueue(firstReply, refused);
    const options = await taskOptions(config);
    const task = Task.create(options, 'Read a.txt');
    assert.equal((await task.run()).status, 'failed');
    server.enqueue(complete);
    const resumed = Task.resume(await taskOptions(config), task.id);
    const outcome = await resumed.run();
    assert.equal(outcome.status, 'completed', JSON.stringify(resumed.log.events.at(-1)));
    assert.equal(server.requests.length, 3);
    return { live: server.requestAt(1).body, resumed: server.requestAt(2).body, taskId: task.id };
  }

  test('OpenAI Responses API: the encrypted reasoning item goes back before its call, in the same run and after a resume', async () => {
    const config = { provider: 'openai' as const, model: 'gpt-5.1-codex', baseUrl: server.openAiBaseUrl, reasoning: { effort: 'medium' as const } };
    const { live, resumed, taskId } = await callThenResume(config, { reasoning: 'Read a.txt first.', toolCalls: [read] });
    for (const body of [live, resumed]) {
      assert.equal(body.store, false);
      const turn = lastTurnItems(body.input, 'assistant');
      assert.deepEqual(
        turn.map((item: any) => item.type),
        ['reasoning', 'function_call'],
      );
      assert.deepEqual(turn[0], {
        type: 'reasoning',
        id: 'rs_scripted_1',
        encrypted_content: 'scripted-encrypted-1',
        summary: [{ type: 'summary_text', text: 'Read a.txt first.' }],
      });
    }
    assert.deepEqual(live.include, ['reasoning.encrypted_content']);
    // The log holds what it takes to send the item back; nothing is kept at OpenAI.
    const log = readFileSync(join(storage, 'tasks', taskId, 'events.jsonl'), 'utf8');
    assert.match(log, /"encryptedContent":"scripted-encrypted-1"/);
    assert.match(log, /"issuer":"openai:gpt-5\.1-codex"/);

    // Resumed with another model, the items it could not read are left out, and the request is accepted.
    server.enqueue(complete);
    const other = Task.resume(await taskOptions({ ...config, model: 'gpt-5-codex' }), taskId);
    await other.run();
    const otherRequest = server.requests.at(-1)!;
    assert.equal(otherRequest.body.model, 'gpt-5-codex');
    assert.deepEqual(
      otherRequest.body.input.filter((item: any) => item.type === 'reasoning'),
      [],
    );
  });

  test('Anthropic: redacted and signed thinking go back first, in order and unchanged, in the same run and after a resume', async () => {
    const config = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: server.anthropicBaseUrl, reasoning: { effort: 'low' as const } };
    const { live, resumed } = await callThenResume(config, { redactedThinking: 'REDACTED-BLOB-1', reasoning: 'Read a.txt first.', toolCalls: [read] });
    for (const body of [live, resumed]) {
      const assistant = body.messages.findLast((m: any) => m.role === 'assistant');
      assert.deepEqual(
        assistant.content.map((b: any) => b.type),
        ['redacted_thinking', 'thinking', 'tool_use'],
      );
      assert.deepEqual(assistant.content[0], { type: 'redacted_thinking', data: 'REDACTED-BLOB-1' });
      assert.equal(assistant.content[1].thinking, 'Read a.txt first.');
      assert.match(assistant.content[1].signature, /^scripted-signature-\d+$/);
    }
    // The server checked each signature against the one it gave; the resumed request sends the same one.
    assert.deepEqual(
      resumed.messages.findLast((m: any) => m.role === 'assistant'),
      live.messages.findLast((m: any) => m.role === 'assistant'),
    );
  });

  test('Gemini: the thought signature stays on its function call part, in the same run and after a resume', async () => {
    const config = { provider: 'gemini' as const, model: 'gemini-2.5-flash', baseUrl: server.geminiBaseUrl };
    const { live, resumed } = await callThenResume(config, { toolCalls: [{ ...read, signature: 'gemini-thought-sig' }] });
    for (const body of [live, resumed]) {
      const model = body.contents.findLast((c: any) => c.role === 'model');
      assert.deepEqual(model.parts, [{ functionCall: { name: 'read_file', args: { path: 'a.txt' } }, thoughtSignature: 'gemini-thought-sig' }]);
    }
  });

  const condenseCases = [
    {
      name: 'OpenAI Responses API',
      config: () => ({ provider: 'openai' as const, model: 'gpt-5.1-codex', baseUrl: server.openAiBaseUrl, reasoning: { effort: 'medium' as const } }),
      reasoningSent: (body: any) => body.input.filter((item: any) => item.type === 'reasoning').length,
    },
    {
      name: 'Anthropic',
      config: () => ({ provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: server.anthropicBaseUrl, reasoning: { effort: 'low' as const } }),
      reasoningSent: (body: any) =>
        body.messages
          .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
          .filter((b: any) => b.type === 'thinking' || b.type === 'redacted_thinking').length,
    },
  ];
  for (const { name, config, reasoningSent } of condenseCases) {
    test(`${name}: a condensed history drops the reasoning of the responses it replaced, and the request is accepted`, async () => {
      const condense = { name: 'condense', arguments: { context: 'Read a.txt: it says alpha.' } };
      server.enqueue({ reasoning: 'Read it.', toolCalls: [read] }, { reasoning: 'Now condense.', toolCalls: [condense] }, complete);
      const task = Task.create(await taskOptions(config()), 'Read a.txt');
      const outcome = await task.run();
      assert.equal(outcome.status, 'completed', JSON.stringify(task.log.events.at(-1)));
      assert.equal(server.requests.length, 3);
      assert.equal(reasoningSent(server.requestAt(1).body), 1, 'before the condense, the reasoning went back with its call');
      assert.equal(reasoningSent(server.requestAt(2).body), 0, 'after it, the summary stands alone');
      assert.ok(task.log.events.some((e) => e.type === 'history_condensed'));
    });
  }

  test('Anthropic: thinking altered in the log is refused by the server, as the API refuses it', async () => {
    const config = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: server.anthropicBaseUrl, reasoning: { effort: 'low' as const } };
    server.enqueue({ reasoning: 'Read a.txt first.', toolCalls: [read] }, refused);
    const task = Task.create(await taskOptions(config), 'Read a.txt');
    assert.equal((await task.run()).status, 'failed');
    const logPath = join(storage, 'tasks', task.id, 'events.jsonl');
    writeFileSync(logPath, readFileSync(logPath, 'utf8').replace('"text":"Read a.txt first."', '"text":"Read b.txt first."'));
    server.enqueue(complete);
    const resumed = Task.resume(await taskOptions(config), task.id);
    assert.equal((await resumed.run()).status, 'failed');
    assert.match(JSON.stringify(resumed.log.events.at(-1)), /Invalid `signature` in `thinking` block/);
  });
});
