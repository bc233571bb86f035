// Native tool calling through the Task and the real SDKs: what each vendor needs sent back (signed
// thinking, thought signatures, its own ids), and that every call keeps a result across an abort and
// resume, a condense, and a protocol switch — the scripted server refuses a call without its result.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { ApprovalAnswer, Host } from '../../../src/core/ports.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import type { ProviderConfig, ToolProtocol } from '../../../src/core/providers/types.js';
import { createTaskEnvironment } from '../../../src/core/session/task-environment.js';
import { DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import { NATIVE_NO_TOOL_REMINDER, NO_RESULT_NOTE } from '../../../src/core/task/api-projection.js';
import { Task } from '../../../src/core/task/task.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { lastUserText, nativeCallRefs, nativeResults } from './wire-views.js';

// 'openai-responses' is OpenAI through the Responses API (a model the catalogue lists as Responses-only).
type Vendor = Extract<ProviderConfig['provider'], 'openai' | 'anthropic' | 'gemini' | 'openai-compatible'> | 'openai-responses';
const VENDORS: readonly Vendor[] = ['openai', 'anthropic', 'gemini', 'openai-compatible', 'openai-responses'];
const MODELS: Record<Vendor, string> = {
  openai: 'gpt-4.1',
  anthropic: 'claude-sonnet-4-5',
  gemini: 'gemini-2.5-flash',
  'openai-compatible': 'scripted-model',
  'openai-responses': 'gpt-5.1-codex',
};

describe('native tool calling through the Task', () => {
  let server: ScriptedLlmServer;
  let ws: TempWorkspace;
  let storage: string;
  before(async () => (server = await startScriptedLlmServer()));
  after(() => server.close());
  beforeEach(() => {
    ws = createTempWorkspace();
    storage = mkdtempSync(join(tmpdir(), 'smith-storage-'));
    server.requests.length = 0;
  });
  afterEach(() => {
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  const baseUrl = (vendor: Vendor) => (vendor === 'anthropic' ? server.anthropicBaseUrl : vendor === 'gemini' ? server.geminiBaseUrl : server.openAiBaseUrl);

  async function taskOptions(vendor: Vendor, host: Host, extra: Partial<ProviderConfig> = {}, toolProtocol: ToolProtocol = 'native') {
    const provider = createProvider({
      provider: vendor === 'openai-responses' ? 'openai' : vendor,
      model: MODELS[vendor],
      apiKey: 'test-key',
      baseUrl: baseUrl(vendor),
      toolProtocol,
      ...extra,
    });
    const environment = await createTaskEnvironment({ cwd: ws.root, storageDir: storage, host, provider, policy: DEFAULT_POLICY, maxIterations: 10 });
    return { ...environment.options, retry: { maxRetries: 0 } };
  }

  const harness = (...answers: ApprovalAnswer[]) => {
    const h = new ToolHarness(ws.root);
    h.answers = answers;
    return h;
  };
  const read = (path: string, more: object = {}) => ({ name: 'read_file', arguments: { path }, ...more });
  const complete = { toolCalls: [{ name: 'attempt_completion', arguments: { result: 'Done.' } }] };

  test('Anthropic: signed thinking goes back first in the assistant turn that called tools', async () => {
    ws.write('a.txt', 'alpha\n');
    server.enqueue({ reasoning: 'Read it first.', toolCalls: [read('a.txt')] }, complete);
    const task = Task.create(await taskOptions('anthropic', harness().host, { reasoning: { effort: 'low' } }), 'Read a.txt');
    const outcome = await task.run();
    assert.equal(outcome.status, 'completed', JSON.stringify(task.log.events.at(-1)));
    const assistant = server.requestAt(1).body.messages[1];
    assert.equal(assistant.content[0].type, 'thinking');
    assert.equal(assistant.content[0].thinking, 'Read it first.');
    assert.match(assistant.content[0].signature, /^scripted-signature-\d+$/);
    assert.equal(assistant.content[1].type, 'tool_use');
  });

  test('Gemini: thought signatures and ids the API gave go back with the calls; made-up ids do not', async () => {
    ws.write('a.txt', 'alpha\n');
    ws.write('b.txt', 'beta\n');
    server.enqueue({ toolCalls: [read('a.txt', { signature: 'sig-A', id: 'gem-1' }), read('b.txt')] }, complete);
    const task = Task.create(await taskOptions('gemini', harness().host), 'Read both');
    assert.equal((await task.run()).status, 'completed');
    const [model, user] = server.requestAt(1).body.contents.slice(1);
    assert.deepEqual(model.parts, [
      { functionCall: { name: 'read_file', args: { path: 'a.txt' }, id: 'gem-1' }, thoughtSignature: 'sig-A' },
      { functionCall: { name: 'read_file', args: { path: 'b.txt' } } },
    ]);
    assert.deepEqual(user.parts.slice(0, 2), [
      { functionResponse: { name: 'read_file', response: { output: '1 | alpha' }, id: 'gem-1' } },
      { functionResponse: { name: 'read_file', response: { output: '1 | beta' } } },
    ]);
  });

  test("Gemini: a malformed function call is the model's mistake, answered with a reminder, not a failure", async () => {
    server.enqueue({ finishReason: 'MALFORMED_FUNCTION_CALL' }, complete);
    const task = Task.create(await taskOptions('gemini', harness().host), 'Do it');
    assert.equal((await task.run()).status, 'completed');
    assert.ok(lastUserText(server.requestAt(1)).includes(NATIVE_NO_TOOL_REMINDER));
  });

  test('an unknown tool and non-string arguments are handled: error result, values as strings', async () => {
    ws.write('a.txt', 'one\ntwo\nthree\n');
    server.enqueue(
      {
        toolCalls: [
          { name: 'delete_file', arguments: { path: 'a.txt' } },
          { name: 'read_file', arguments: { path: 'a.txt', start_line: 2, end_line: 2.0 } },
        ],
      },
      complete,
    );
    const task = Task.create(await taskOptions('openai', harness().host), 'Go');
    assert.equal((await task.run()).status, 'completed');
    const results = nativeResults(server.requestAt(1));
    assert.equal(results[0]!.isError, true);
    assert.match(results[0]!.content, /^Unknown tool "delete_file"\. Available tools: .*read_file/);
    assert.match(results[1]!.content, /^2 \| two\n/);
    const requested = task.log.events.filter((e) => e.type === 'tool_requested');
    assert.deepEqual(requested[1]!.type === 'tool_requested' && requested[1]!.params, { path: 'a.txt', start_line: '2', end_line: '2' });
  });

  for (const vendor of VENDORS) {
    test(`${vendor}: a task stopped in the middle of a response's calls resumes with a result for every call`, async () => {
      ws.write('a.txt', 'alpha\n');
      ws.write('b.txt', 'beta\n');
      const edit = (path: string, from: string, to: string) => ({
        name: 'replace_in_file',
        arguments: { path, diff: `------- SEARCH\n${from}\n=======\n${to}\n+++++++ REPLACE` },
      });
      server.enqueue({ text: 'Editing both.', toolCalls: [edit('a.txt', 'alpha', 'ALPHA'), edit('b.txt', 'beta', 'BETA')] });
      let task: Task | undefined;
      const host = harness().host;
      const stoppingHost: Host = {
        ...host,
        approvals: {
          ask: (_request, signal) =>
            new Promise((_resolve, reject) => {
              signal.addEventListener('abort', () => reject(signal.reason));
              task!.abort();
            }),
        },
      };
      const options = await taskOptions(vendor, stoppingHost);
      task = Task.create(options, 'Edit both');
      assert.equal((await task.run()).status, 'aborted');

      server.enqueue(complete);
      const resumed = Task.resume(options, task.id);
      assert.equal((await resumed.run()).status, 'completed');
      const request = server.requestAt(1);
      const results = nativeResults(request);
      assert.deepEqual(
        results.map((r) => r.callRef),
        nativeCallRefs(request),
      );
      assert.deepEqual(
        results.map((r) => r.content),
        [NO_RESULT_NOTE, NO_RESULT_NOTE],
      );
      assert.match(lastUserText(request), /\[TASK RESUMPTION\][\s\S]*replace_in_file[\s\S]*interrupted/);
      assert.equal(ws.read('a.txt'), 'alpha\n');
    });

    test(`${vendor}: after a condense the summary stands alone and no result is orphaned`, async () => {
      ws.write('a.txt', 'alpha\n');
      server.enqueue({ toolCalls: [read('a.txt')] }, { toolCalls: [{ name: 'condense', arguments: { context: 'Read a.txt: it says alpha.' } }] }, complete);
      const task = Task.create(await taskOptions(vendor, harness().host), 'Summarise');
      assert.equal((await task.run()).status, 'completed');
      const request = server.requestAt(2);
      assert.deepEqual(nativeResults(request), []);
      assert.match(lastUserText(request), /<condensed_history>[\s\S]*it says alpha[\s\S]*\[condense\] Result:/);
    });

    test(`${vendor}: a task begun with XML tool calls continues natively, its old calls as text`, async () => {
      ws.write('a.txt', 'alpha\n');
      server.enqueue({ text: '<read_file>\n<path>a.txt</path>\n</read_file>' }, { text: 'Hmm.' });
      const xmlOptions = await taskOptions(vendor, harness().host, {}, 'xml');
      const task = Task.create({ ...xmlOptions, maxIterations: 2 }, 'Read a.txt');
      assert.equal((await task.run()).status, 'failed');

      server.enqueue({ toolCalls: [read('a.txt')] }, complete);
      const nativeOptions = await taskOptions(vendor, harness().host);
      const resumed = Task.resume(nativeOptions, task.id);
      assert.equal((await resumed.run()).status, 'completed');
      const [first, second] = server.requests.slice(2);
      assert.equal(nativeResults(first!).length, 0, 'the XML-era call stays text');
      assert.match(JSON.stringify(first!.body), /<read_file>/);
      assert.deepEqual(
        nativeResults(second!).map((r) => r.content),
        ['1 | alpha'],
      );
    });
  }
});
