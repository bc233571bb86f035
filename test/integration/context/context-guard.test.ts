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

  // Replies left queued by one test must not answer the next: each queued reply asks the current test's responder.
  let respond: (request: RecordedRequest) => { text: string } = () => complete;
  const answerWith = (responder: (request: RecordedRequest) => { text: string }) => {
    respond = responder;
    server.enqueue(...Array.from({ length: 12 }, () => (request: RecordedRequest) => respond(request)));
  };

  const providerFor = (model: string) => new OpenAiProvider({ id: 'openai-compatible', model, baseUrl: server.openAiBaseUrl, keySource: 'SMITH_API_KEY' });

  async function taskWith(contextWindow: number, autoCondenseThreshold: number, extra: { autoCondenseTokens?: number; condenseModel?: string } = {}) {
    const provider = providerFor('scripted-model');
    const env = await createTaskEnvironment({
      cwd: ws.root,
      storageDir: storage,
      host: new ToolHarness(ws.root).host,
      provider,
      policy: APPROVE_ALL_POLICY,
      maxIterations: 20,
    });
    return Task.create(
      {
        ...env.options,
        contextLimits: { contextWindow, maxOutputTokens: 1_000 },
        contextPolicy: { autoCondenseThreshold, ...(extra.autoCondenseTokens !== undefined ? { autoCondenseTokens: extra.autoCondenseTokens } : {}) },
        ...(extra.condenseModel ? { condenseProvider: providerFor(extra.condenseModel) } : {}),
      },
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
    answerWith(answer);
    const task = await taskWith(9_000, 0.6);
    const outcome = await task.run();
    assert.equal(outcome.status, 'completed', JSON.stringify(outcome).slice(0, 300));
    assert.ok(summaries >= 1, 'the model was never asked for a summary');
    assert.ok(sawCondensed, 'no request carried the summary');
    assert.ok(task.log.events.some((e) => e.type === 'history_condensed' && /^SUMMARY \d/.test(e.summary)));
  });

  test('a token trigger condenses on a huge window, and another model writes the summary, which the log keeps with its name', async () => {
    const script = [read('f0.txt'), read('f1.txt'), read('f2.txt'), read('f3.txt'), read('f4.txt'), complete];
    const summaryModels: unknown[] = [];
    const answer = (request: RecordedRequest) => {
      if (/You summarise a coding session/.test(systemOf(request))) {
        summaryModels.push(request.body.model);
        return { text: 'SUMMARY: files read so far.' };
      }
      return script.shift()!;
    };
    answerWith(answer);
    const task = await taskWith(1_000_000, 0.8, { autoCondenseTokens: 2_500, condenseModel: 'cheap-model' });
    assert.equal((await task.run()).status, 'completed');
    assert.ok(summaryModels.length >= 1, 'a 1M window at 80 % would never condense here; the token trigger did');
    assert.deepEqual([...new Set(summaryModels)], ['cheap-model']);
    const condensed = task.log.events.find((e) => e.type === 'history_condensed');
    assert.equal(condensed?.type === 'history_condensed' ? condensed.model : undefined, 'openai-compatible/cheap-model');
    const measured = task.log.events.findLast((e) => e.type === 'context_measured');
    assert.equal(measured?.type === 'context_measured' ? measured.condenseAt : undefined, 2_500 / 1_000_000, 'the context bar shows the trigger that applies');
  });

  test('large old tool results are shortened before the whole history is condensed; recent ones stay whole', async () => {
    for (let i = 0; i < 6; i++) ws.write(`big${i}.txt`, Array.from({ length: 800 }, (_, line) => `big ${i} line ${line} ${'x'.repeat(40)}`).join('\n'));
    const script = [read('big0.txt'), read('big1.txt'), read('big2.txt'), read('big3.txt'), read('big4.txt'), read('big5.txt'), complete];
    let summaries = 0;
    const answer = (request: RecordedRequest) => {
      if (/You summarise a coding session/.test(systemOf(request))) {
        summaries++;
        return { text: 'SUMMARY' };
      }
      return script.shift()!;
    };
    answerWith(answer);
    // Each file is about 12,000 tokens; five of them (with the prompt) pass 60,000, and shortening those before the last four turns brings the request back under it.
    const task = await taskWith(1_000_000, 0.8, { autoCondenseTokens: 60_000 });
    const outcome = await task.run();
    assert.equal(outcome.status, 'completed', JSON.stringify(outcome));
    assert.equal(summaries, 0, 'shortening was enough: no summary request');
    const shortened = task.log.events.find((e) => e.type === 'tool_results_shortened');
    assert.ok(shortened?.type === 'tool_results_shortened' && shortened.results >= 1, 'a shortening was logged');
    const last = textOf(server.requests.at(-1)!);
    assert.match(last, /big 0 line 0 /, 'the beginning of an old result stays');
    assert.match(last, /big 0 line 794 x+\n\n\[Showing lines 1-795 of 800/, 'and its end, with what read_file said there');
    assert.doesNotMatch(last, /big 0 line 400 /, 'its middle is left out');
    assert.match(last, /lines \(about \d+ tokens\) of this old result were left out to keep the context small/);
    assert.match(last, /big 5 line 400 /, 'the newest result is whole');
  });
});
