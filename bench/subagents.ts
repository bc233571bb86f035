// Sub-agents: tokens in the parent's context after a scripted research task (three files of
// about 300 lines to look into), answered by the parent reading the files itself and by three
// sub-agents that read one file each and report in a few lines. The model is the scripted server;
// the requests are the real ones Smith sends, counted with o200k.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createProvider } from '../src/core/providers/create-provider.js';
import { createTaskEnvironment } from '../src/core/session/task-environment.js';
import { APPROVE_ALL_POLICY } from '../src/core/log/approval-policy.js';
import { Task } from '../src/core/task/task.js';
import { startScriptedLlmServer, type RecordedRequest } from '../test/fixtures/scripted-llm-server.js';
import { conversationRouter } from '../test/helpers/conversation-router.js';
import { ToolHarness } from '../test/helpers/tool-harness.js';
import type { BenchOptions, BenchOutcome, Row } from './report.js';

const FILES = ['billing.ts', 'shipping.ts', 'returns.ts'];
const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const read = (path: string) => ({ text: `<read_file>\n<path>${path}</path>\n</read_file>` });

function sourceFile(name: string): string {
  const lines = Array.from(
    { length: 300 },
    (_, i) => `export function ${name.replace('.ts', '')}Step${i}(order: Order): number { return order.total * ${(i % 7) + 1} + ${i}; }`,
  );
  return `// ${name}\n${lines.join('\n')}\n`;
}

/** Tokens of every message of the parent's last request. */
function contextTokens(request: RecordedRequest): number {
  const messages = request.body.messages as Array<{ content: unknown }>;
  return countTokens(messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n'));
}

async function parentContext(withSubagents: boolean): Promise<number> {
  const ws = mkdtempSync(join(tmpdir(), 'smith-bench-subagents-'));
  const storage = mkdtempSync(join(tmpdir(), 'smith-bench-subagents-storage-'));
  const server = await startScriptedLlmServer();
  try {
    for (const file of FILES) writeFileSync(join(ws, file), sourceFile(file));
    const task = 'Summarise how orders are priced';
    const scripts = withSubagents
      ? {
          [task]: [
            {
              text: `<use_subagents>\n<prompts>${JSON.stringify(FILES.map((f) => `Question about ${f}: how does it price an order?`))}</prompts>\n</use_subagents>`,
            },
            done('Summarised.'),
          ],
          ...Object.fromEntries(
            FILES.map((f) => [`Question about ${f}`, [read(f), done(`${f} multiplies the total by 1 to 7 and adds the step number, in 300 steps.`)]]),
          ),
        }
      : { [task]: [...FILES.map(read), done('Summarised.')] };
    const router = conversationRouter(scripts);
    server.enqueue(...router.replies());
    const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'k', baseUrl: server.openAiBaseUrl });
    const environment = await createTaskEnvironment({
      cwd: ws,
      storageDir: storage,
      host: new ToolHarness(ws).host,
      provider,
      policy: APPROVE_ALL_POLICY,
      maxIterations: 10,
      checkpoints: { enabled: false },
    });
    try {
      const outcome = await Task.create({ ...environment.options, retry: { maxRetries: 0 } }, task).run();
      if (outcome.status !== 'completed') throw new Error(`the scripted task ended ${outcome.status}`);
    } finally {
      await environment.dispose();
    }
    const parentRequests = server.requests.filter((r) => JSON.stringify(r.body.messages).includes(task));
    return contextTokens(parentRequests.at(-1)!);
  } finally {
    await server.close();
    rmSync(ws, { recursive: true, force: true });
    rmSync(storage, { recursive: true, force: true });
  }
}

/** Runs the sub-agents benchmark. */
export async function runSubagentsBench(options: BenchOptions): Promise<BenchOutcome> {
  const alone = await parentContext(false);
  const delegated = await parentContext(true);
  options.log(`subagents: parent context ${alone} tokens reading the files itself, ${delegated} with sub-agents`);
  const saved = 1 - delegated / alone;
  const rows: Row[] = [
    {
      bench: 'subagents',
      metric: 'parent context after 3 files researched: itself / with sub-agents (tokens)',
      value: `${alone} / ${delegated}`,
      target: '',
      status: 'info',
    },
    { bench: 'subagents', metric: '  parent-context tokens saved by sub-agents', value: `${Math.round(saved * 100)}%`, target: '', status: 'info' },
  ];
  return { results: { parent_tokens_alone: alone, parent_tokens_with_subagents: delegated, saved_share: Math.round(saved * 1000) / 1000 }, rows, notes: [] };
}
