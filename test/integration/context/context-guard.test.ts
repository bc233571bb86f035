import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { OpenAiProvider } from '../../../src/core/providers/openai-provider.js';
import { createTaskEnvironment } from '../../../src/core/session/task-environment.js';
import { APPROVE_ALL_POLICY } from '../../../src/core/log/approval-policy.js';
import { TRUNCATION_NOTE } from '../../../src/core/task/api-projection.js';
import { Task } from '../../../src/core/task/task.js';
import { startScriptedLlmServer, type RecordedRequest, type ScriptedLlmServer } from '../../fixtures/scripted-llm-server.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const systemOf = (r: RecordedRequest) => (r.body.messages as Array<{ role: string; content: string }>)[0]!.content;
const textOf = (r: RecordedRequest) => (r.body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
const read = (path: string) => ({ text: `<read_file>\n<path>${path}</path>\n</read_file>` });
const complete = { text: '<attempt_completion>\n<result>done</result>\n</attempt_completion>' };

describe('context management through a real provider', () => {
  let server: ScriptedLlmServer;
  let ws: TempWorkspace;
  let storage: string;
  before(async () => (server = await startScriptedLlmServer()));
  after(() => server.close());
  beforeEach(() => {
    ws = createTempWorkspace();
    storage = mkdtempSync(join(tmpdir(), 'smith-storage-'));
    server.requests.length = 0;
    for (let i = 0; i < 6; i++) ws.write(`f${i}.txt`, `file ${i} `.repeat(300));
  });
  afterEach(() => {
    ws.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  async function taskWith(contextWindow: number, autoCondenseThreshold: number) {
    const provider = new OpenAiProvider({ id: 'openai-compatible', model: 'scripted-model', baseUrl: server.openAiBaseUrl, keySource: 'SMITH_API_KEY' });
    const env = await createTaskEnvironment({
      cwd: ws.root,
      storageDir: storage,
      host: new ToolHarness(ws.root).host,
      provider,
      policy: APPROVE_ALL_POLICY,
      maxIterations: 20,
    });
    return Task.create(
      { ...env.options, contextLimits: { contextWindow, maxOutputTokens: 1_000 }, contextPolicy: { autoCondenseThreshold } },
      'Read every file',
    );
  }

  test('past the budget, older turns are dropped (as an event) and the model is told', async () => {
    server.enqueue(read('f0.txt'), read('f1.txt'), read('f2.txt'), read('f3.txt'), read('f4.txt'), complete);
    const task = await taskWith(7_000, 0);
    const outcome = await task.run();
    assert.equal(outcome.status, 'completed');
    assert.ok(task.log.events.some((e) => e.type === 'history_truncated'));
    const last = server.requests.at(-1)!;
    assert.match(textOf(last), /<task>\nRead every file\n<\/task>/);
    assert.ok(textOf(last).includes(TRUNCATION_NOTE));
    assert.doesNotMatch(textOf(last), /file 0 file 0/);
  });

  test('at the threshold the model summarises the history, which replaces the older turns', async () => {
    const script = [read('f0.txt'), read('f1.txt'), read('f2.txt'), read('f3.txt'), read('f4.txt'), complete];
    let summaries = 0;
    let sawCondensed = false;
    const answer = (request: RecordedRequest) => {
      if (/You summarise a coding session/.test(systemOf(request))) {
        summaries++;
        return { text: `SUMMARY ${summaries}: files read so far.` };
      }
      if (/<condensed_history>/.test(textOf(request))) {
        sawCondensed = true;
        assert.match(textOf(request), /SUMMARY \d: files read so far\./);
        assert.doesNotMatch(textOf(request), /file 0 file 0/);
      }
      return script.shift()!;
    };
    server.enqueue(...Array.from({ length: 12 }, () => answer));
    const task = await taskWith(9_000, 0.6);
    const outcome = await task.run();
    assert.equal(outcome.status, 'completed', JSON.stringify(outcome).slice(0, 300));
    assert.ok(summaries >= 1, 'the model was never asked for a summary');
    assert.ok(sawCondensed, 'no request carried the summary');
    assert.ok(task.log.events.some((e) => e.type === 'history_condensed' && /^SUMMARY \d/.test(e.summary)));
  });
});
