// VS Code's language models as Smith's provider, in the real workbench: the test extension
// (test/fixtures/vscode-lm-extension) registers the scripted models of the vendor `smith-test`
// through vscode.lm.registerLanguageModelChatProvider, and Smith reaches them through vscode.lm
// as it would Copilot's: listing, streaming, native tool calls, the XML protocol, cancellation,
// errors, and a whole task from the panel.
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { ProviderAbortedError, ProviderError, type ApiRequest, type ApiStreamChunk, type ToolDefinition } from '../../../../src/core/providers/types';
import { createHostProvider } from '../../../../src/host/vscode/host-provider';
import type { SmithApi } from '../../../../src/host/vscode/smith-api';
import type { VsCodeLmProvider } from '../../../../src/host/vscode/vscode-lm-provider';
import { until } from '../../../helpers/until';

const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const SETTINGS = ['provider', 'model', 'baseUrl', 'toolProtocol', 'autoApprove.editFiles'];

/** What the test extension's last request carried (see its extension.js). */
interface SeenRequest {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly parts: readonly Record<string, unknown>[] }[];
  readonly tools: readonly { readonly name: string; readonly description: string; readonly inputSchema: unknown }[];
  readonly cancelled: boolean;
}

const lastRequest = async () => (await vscode.commands.executeCommand<SeenRequest>('smithTest.lm.lastRequest'))!;

async function collect(provider: VsCodeLmProvider, request: ApiRequest): Promise<ApiStreamChunk[]> {
  const chunks: ApiStreamChunk[] = [];
  for await (const chunk of provider.createMessage(request)) chunks.push(chunk);
  return chunks;
}

const textOf = (chunks: readonly ApiStreamChunk[]) => chunks.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');
const echo = (model = 'smith-echo') => createHostProvider({ provider: 'vscode-lm', model }) as VsCodeLmProvider;

const READ_FILE: ToolDefinition = {
  name: 'read_file',
  description: 'Reads a file of the workspace.',
  parameters: { type: 'object', properties: { path: { type: 'string', description: 'The file, relative to the workspace.' } }, required: ['path'] },
};
// A 1×1 PNG.
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('VS Code language models (vscode.lm)', function () {
  this.timeout(120_000);

  it('lists the models VS Code offers with what the API tells of them, through the panel', async () => {
    const api = await vscode.extensions.getExtension<SmithApi>('smith.smith')!.activate();
    await api.controller.listRequests.listModels('vscode-lm', '');
    const list = api.controller.snapshot().models!;
    assert.equal(list.provider, 'vscode-lm');
    assert.equal(list.error, undefined);
    const ours = list.models.filter((model) => model.id.startsWith('smith-'));
    assert.deepEqual(ours, [
      { id: 'smith-echo', name: 'Smith Echo · smith-test', contextWindow: 32_000, supportsImages: true, supportsTools: true },
      { id: 'smith-plain', name: 'Smith Plain · smith-test', contextWindow: 8000, supportsImages: false, supportsTools: false },
    ]);
  });

  it('streams a text answer, with the instructions as the first user message and an estimated usage', async () => {
    const provider = echo();
    const chunks = await collect(provider, { systemPrompt: 'You are a scripted test.', messages: [{ role: 'user', content: 'hello there model' }] });
    assert.equal(textOf(chunks), 'Echo: hello there model');
    assert.ok(chunks.filter((c) => c.type === 'text').length > 1, 'streamed in several parts');
    const usage = chunks.at(-1);
    assert.equal(usage?.type, 'usage');
    // The test model counts four characters a token; the estimate is its count.
    if (usage?.type === 'usage') {
      assert.equal(usage.usage.outputTokens, Math.ceil('Echo: hello there model'.length / 4));
      assert.equal(usage.usage.inputTokens, Math.ceil('You are a scripted test.'.length / 4) + Math.ceil('hello there model'.length / 4));
    }
    const seen = await lastRequest();
    assert.equal(seen.model, 'smith-echo');
    assert.deepEqual(seen.messages, [
      { role: 'user', parts: [{ type: 'text', value: 'You are a scripted test.' }] },
      { role: 'user', parts: [{ type: 'text', value: 'hello there model' }] },
    ]);
    assert.equal(provider.modelId, 'smith-echo');
    assert.deepEqual(await provider.describeModel(), {
      id: 'smith-echo',
      name: 'Smith Echo · smith-test',
      contextWindow: 32_000,
      supportsImages: true,
      supportsTools: true,
      inputPrice: 0,
      outputPrice: 0,
    });
  });

  it('with no model named, the first model VS Code offers answers', async () => {
    const first = (await vscode.lm.selectChatModels())[0]!;
    const provider = echo('');
    assert.equal(provider.modelId, '');
    assert.equal((await provider.describeModel())?.id, first.id);
    assert.equal(provider.modelId, first.id);
  });

  it('sends native tools and reads the tool call, then sends its result (with an image) back', async () => {
    const provider = echo();
    const call = await collect(provider, { systemPrompt: 'Use tools.', messages: [{ role: 'user', content: 'Read the README' }], tools: [READ_FILE] });
    assert.deepEqual(
      call.filter((c) => c.type !== 'usage'),
      [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_call', id: 'call-1', name: 'read_file', arguments: '{"path":"README.md"}' },
      ],
    );
    let seen = await lastRequest();
    assert.deepEqual(seen.tools, [{ name: 'read_file', description: READ_FILE.description, inputSchema: READ_FILE.parameters }]);

    const answer = await collect(provider, {
      systemPrompt: 'Use tools.',
      tools: [READ_FILE],
      messages: [
        { role: 'user', content: 'Read the README' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'call-1', name: 'read_file', input: { path: 'README.md' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'call-1',
              name: 'read_file',
              content: '# Workspace',
              images: [{ type: 'image', mimeType: 'image/png', data: PIXEL }],
            },
          ],
        },
      ],
    });
    assert.equal(textOf(answer), 'The tool answered: # Workspace');
    seen = await lastRequest();
    assert.deepEqual(seen.messages.slice(2), [
      {
        role: 'assistant',
        parts: [
          { type: 'text', value: 'Let me look.' },
          { type: 'tool_call', callId: 'call-1', name: 'read_file', input: { path: 'README.md' } },
        ],
      },
      {
        role: 'user',
        parts: [
          { type: 'tool_result', callId: 'call-1', text: '# Workspace' },
          { type: 'text', value: '[Image returned by the read_file call call-1:]' },
          { type: 'data', mimeType: 'image/png', bytes: Buffer.from(PIXEL, 'base64').length },
        ],
      },
    ]);
  });

  it('speaks the XML tool protocol as plain text: no tools offered, every part text', async () => {
    const provider = echo('smith-plain');
    const chunks = await collect(provider, {
      systemPrompt: 'Answer with XML tool blocks.',
      messages: [
        { role: 'user', content: 'Read a.txt' },
        { role: 'assistant', content: '<read_file>\n<path>a.txt</path>\n</read_file>' },
        { role: 'user', content: '[read_file for a.txt] Result:\nalpha' },
      ],
    });
    assert.equal(textOf(chunks), 'Echo: [read_file for a.txt] Result:\nalpha');
    const seen = await lastRequest();
    assert.equal(seen.model, 'smith-plain');
    assert.deepEqual(seen.tools, []);
    assert.deepEqual(
      seen.messages.map((m) => m.role),
      ['user', 'user', 'assistant', 'user'],
    );
    assert.ok(seen.messages.every((m) => m.parts.every((p) => p.type === 'text')));
    assert.equal(seen.messages[2]!.parts[0]!.value, '<read_file>\n<path>a.txt</path>\n</read_file>');
  });

  it("cancels the request through its AbortSignal: the stream ends at once and the model's extension is told", async () => {
    const provider = echo();
    const controller = new AbortController();
    const received: ApiStreamChunk[] = [];
    const run = (async () => {
      for await (const chunk of provider.createMessage({ systemPrompt: '', messages: [{ role: 'user', content: 'LM_WAIT' }], signal: controller.signal })) {
        received.push(chunk);
        controller.abort();
      }
    })();
    await assert.rejects(run, ProviderAbortedError);
    assert.deepEqual(received, [{ type: 'text', text: 'Thinking about it' }]);
    await until(async () => (await lastRequest()).cancelled, 'the cancellation to reach the model');
  });

  it('a model that goes quiet for longer than the idle timeout is abandoned (retryable), and its extension is told to stop', async () => {
    // The model says one thing and then nothing; on a slow machine even its first part may come late, so either phase may be named.
    const provider = createHostProvider({ provider: 'vscode-lm', model: 'smith-echo', idleTimeoutMs: 3_000 });
    const run = (async () => {
      for await (const _ of provider.createMessage({ systemPrompt: '', messages: [{ role: 'user', content: 'LM_WAIT' }] })) {
        // The parts that came before it went quiet.
      }
    })();
    await assert.rejects(run, (error: Error) => {
      assert.ok(error instanceof ProviderError && error.retryable, String(error));
      assert.match(error.message, /^No data from Smith Echo \(smith-test\) for 3 s (after|before) the response started \(the idle timeout\)/);
      return true;
    });
    await until(async () => (await lastRequest()).cancelled, 'the cancellation to reach the model');
  });

  it('a model VS Code does not offer is a clear error naming those it does', async () => {
    const provider = echo('no-such-model');
    await assert.rejects(collect(provider, { systemPrompt: '', messages: [{ role: 'user', content: 'hi' }] }), (error: Error) => {
      assert.ok(error instanceof ProviderError);
      assert.match(error.message, /^VS Code has no language model "no-such-model"\. The models it offers: .*smith-echo, smith-plain/);
      return true;
    });
    assert.equal(await provider.describeModel(), undefined);
  });

  it("a model whose extension throws fails with its message; VS Code's error codes are named for the user, and a quota reached is worth a retry", async () => {
    const provider = echo();
    await assert.rejects(collect(provider, { systemPrompt: '', messages: [{ role: 'user', content: 'LM_THROW' }] }), (error: Error) => {
      assert.ok(error instanceof ProviderError && !(error instanceof ProviderAbortedError));
      assert.match(error.message, /^Smith Echo \(smith-test\) failed: .*The smith-test model broke on purpose\./);
      assert.equal(error.retryable, false);
      return true;
    });
    await assert.rejects(collect(provider, { systemPrompt: '', messages: [{ role: 'user', content: 'LM_BLOCKED' }] }), (error: Error) => {
      assert.ok(error instanceof ProviderError);
      assert.match(error.message, /quota or rate limit is reached .*The smith-test quota is used up\./);
      assert.equal(error.retryable, true);
      assert.equal(error.status, 429);
      return true;
    });
    await assert.rejects(collect(provider, { systemPrompt: '', messages: [{ role: 'user', content: 'LM_NOT_ALLOWED' }] }), (error: Error) => {
      assert.ok(error instanceof ProviderError);
      assert.match(
        error.message,
        /^Smith may not use Smith Echo \(smith-test\): VS Code did not get your consent for it \(.*The user said no\.\)\. Run the task again and allow Smith/,
      );
      assert.equal(error.retryable, false);
      return true;
    });
    await assert.rejects(collect(provider, { systemPrompt: '', messages: [{ role: 'user', content: 'LM_GONE' }] }), (error: Error) => {
      assert.ok(error instanceof ProviderError);
      assert.match(error.message, /^Smith Echo \(smith-test\) is no longer available in VS Code \(.*unplugged\.\)/);
      return true;
    });
  });

  describe('a whole task from the panel', () => {
    let api: SmithApi;

    before(async () => {
      api = await vscode.extensions.getExtension<SmithApi>('smith.smith')!.activate();
      const config = vscode.workspace.getConfiguration('smith');
      const target = vscode.ConfigurationTarget.Global;
      await config.update('provider', 'vscode-lm', target);
      await config.update('model', 'smith-echo', target);
      await config.update('baseUrl', undefined, target);
      await config.update('toolProtocol', 'xml', target);
      await config.update('autoApprove.editFiles', true, target);
    });

    afterEach(async () => {
      await api.controller.closeAllTasks();
    });

    after(async () => {
      const config = vscode.workspace.getConfiguration('smith');
      for (const key of SETTINGS) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      rmSync(join(workspace, 'lm'), { recursive: true, force: true });
    });

    it("runs with no key: writes the file the model asked for and completes with its answer, at $0 in the model's window", async () => {
      await until(
        () => api.controller.snapshot().settings.provider === 'vscode-lm' && (api.controller.snapshot().settings.missing?.length ?? 0) === 0,
        'the settings to take vscode-lm',
      );
      await api.controller.newTask('TASK_WRITE: create lm/hello.txt');
      await until(() => ['completed', 'failed'].includes(api.controller.snapshot().task?.status ?? ''), 'the task to end', 60_000);
      const task = api.controller.snapshot().task!;
      assert.equal(task.status, 'completed', task.error);
      assert.equal(readFileSync(join(workspace, 'lm/hello.txt'), 'utf8'), 'Hello from a VS Code language model\n');
      const completion = task.messages.find((m) => m.kind === 'completion');
      assert.equal(completion?.kind === 'completion' ? completion.result : undefined, 'Wrote lm/hello.txt with the smith-test model.');
      assert.ok(
        task.messages.some((m) => m.kind === 'tool'),
        'the write_to_file call is in the chat',
      );
      assert.equal(task.context?.window, 32_000);
      assert.equal(task.cost, 0);
    });

    it('runs in the native tool protocol: a read_file call and attempt_completion travel as VS Code tool calls', async () => {
      await vscode.workspace.getConfiguration('smith').update('toolProtocol', 'native', vscode.ConfigurationTarget.Global);
      try {
        await until(() => api.controller.snapshot().settings.toolProtocol === 'native', 'the settings to take the native protocol');
        await api.controller.newTask('Read README.md and tell me how it starts');
        await until(() => ['completed', 'failed'].includes(api.controller.snapshot().task?.status ?? ''), 'the task to end', 60_000);
        const task = api.controller.snapshot().task!;
        assert.equal(task.status, 'completed', task.error);
        const completion = task.messages.find((m) => m.kind === 'completion');
        assert.equal(
          completion?.kind === 'completion' ? completion.result : undefined,
          'The README starts: 1 | # Workspace of the extension-host tests',
          'read_file numbers its lines',
        );
        const seen = await lastRequest();
        assert.ok(
          seen.tools.some((tool) => tool.name === 'read_file') && seen.tools.some((tool) => tool.name === 'attempt_completion'),
          'Smith offered its tools natively',
        );
        assert.ok(
          seen.messages.some((m) => m.parts.some((p) => p.type === 'tool_call' && p.name === 'read_file')),
          'the read_file call went back to the model',
        );
        assert.ok(
          seen.messages.some((m) => m.parts.some((p) => p.type === 'tool_result' && String(p.text).includes('# Workspace of the extension-host tests'))),
          'with its result',
        );
      } finally {
        await vscode.workspace.getConfiguration('smith').update('toolProtocol', 'xml', vscode.ConfigurationTarget.Global);
      }
    });
  });
});
