import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { unlessAborted, untilAborted } from '../../../src/core/providers/abortable-iteration.js';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { chooseEditorModel, EDITOR_MODELS_ONLY_IN_VS_CODE, editorModelFacts, type EditorModelInfo } from '../../../src/core/providers/editor-models.js';
import { learnModelFacts, providerModels } from '../../../src/core/providers/provider-models.js';
import { knownModelInfo } from '../../../src/core/session/task-environment.js';
import { ProviderAbortedError, ProviderError, type ApiProvider } from '../../../src/core/providers/types.js';
import { modelFactsText } from '../../../src/shared/model-facts-text.js';

const GPT: EditorModelInfo = {
  id: 'gpt-4.1',
  name: 'GPT-4.1',
  vendor: 'copilot',
  family: 'gpt-4.1',
  maxInputTokens: 128_000,
  capabilities: { supportsImageToText: true, supportsToolCalling: true },
};
const OLD_EDITOR: EditorModelInfo = { id: 'echo', name: '', vendor: 'smith-test', family: 'echo-family', maxInputTokens: 0 };

describe('VS Code language models in the engine', () => {
  test("a model's facts: its name and vendor, the input limit as the window, what it takes where the editor says", () => {
    assert.deepEqual(editorModelFacts(GPT), { id: 'gpt-4.1', name: 'GPT-4.1 · copilot', contextWindow: 128_000, supportsImages: true, supportsTools: true });
    // An editor without capabilities, a model without a name or a limit: only what is known.
    assert.deepEqual(editorModelFacts(OLD_EDITOR), { id: 'echo', name: 'echo-family · smith-test' });
    assert.equal(
      modelFactsText(editorModelFacts(GPT), (n) => `${n / 1000}k`),
      'GPT-4.1 · copilot · 128k · images · tools',
    );
  });

  test('the model asked for by id, the first one without an id, and errors that say what there is', () => {
    assert.equal(chooseEditorModel([OLD_EDITOR, GPT], 'gpt-4.1'), GPT);
    assert.equal(chooseEditorModel([OLD_EDITOR, GPT], ' '), OLD_EDITOR);
    assert.throws(
      () => chooseEditorModel([OLD_EDITOR, GPT], 'claude'),
      (error: ProviderError) => error instanceof ProviderError && /no language model "claude"\. The models it offers: echo, gpt-4\.1\./.test(error.message),
    );
    assert.throws(() => chooseEditorModel([], ''), /VS Code offers no language models\. Install and sign in to an extension that provides them/);
  });

  test('the engine alone cannot build or list them, and says so', async () => {
    assert.throws(
      () => createProvider({ provider: 'vscode-lm', model: '' }),
      (error: Error) => error instanceof ProviderError && error.message === EDITOR_MODELS_ONLY_IN_VS_CODE,
    );
    const listed = await providerModels({ provider: 'vscode-lm', model: 'none' });
    assert.deepEqual(listed, { source: 'catalogue', models: [], error: EDITOR_MODELS_ONLY_IN_VS_CODE });
  });
});

describe('a provider that describes its own model', () => {
  const describing = (describeModel: ApiProvider['describeModel']): ApiProvider => ({
    id: 'vscode-lm',
    modelId: 'gpt-4.1',
    ...(describeModel ? { describeModel } : {}),
    createMessage: () => {
      throw new Error('not asked');
    },
  });

  test('is asked for its facts instead of a server, and its window and $0 price reach the task', async () => {
    const provider = describing(async () => ({ ...editorModelFacts(GPT), inputPrice: 0, outputPrice: 0 }));
    const learned = await learnModelFacts([provider], '/nonexistent/smith-storage');
    const info = knownModelInfo(provider, {}, learned.get(provider));
    assert.equal(info?.contextWindow, 128_000);
    assert.equal(info?.supportsImages, true);
    assert.deepEqual([info?.inputPrice, info?.outputPrice], [0, 0]);
  });

  test('one that cannot tell leaves the task without facts rather than failing it', async () => {
    const failing = describing(() => Promise.reject(new Error('no models')));
    const silent = describing(async () => undefined);
    const learned = await learnModelFacts([failing, silent], '/nonexistent/smith-storage');
    assert.equal(learned.size, 0);
  });
});

describe('untilAborted', () => {
  test('passes every item through when nothing aborts', async () => {
    const items: number[] = [];
    for await (const item of untilAborted(numbers(3), new AbortController().signal)) items.push(item);
    assert.deepEqual(items, [0, 1, 2]);
  });

  test('ends a stream that waits forever as soon as the signal aborts, and tells the source to stop', async () => {
    const controller = new AbortController();
    let stopped = false;
    const hanging: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: () => (stopped ? Promise.resolve({ done: true as const, value: undefined }) : new Promise<IteratorResult<string>>(() => {})),
        return: () => {
          stopped = true;
          return Promise.resolve({ done: true as const, value: undefined });
        },
      }),
    };
    const received: string[] = [];
    const run = (async () => {
      for await (const item of untilAborted(hanging, controller.signal)) received.push(item);
    })();
    controller.abort();
    await assert.rejects(run, ProviderAbortedError);
    assert.equal(stopped, true);
    assert.deepEqual(received, []);
  });

  test('with an idle limit, a stream that goes quiet ends with its error, saying whether anything came', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const quietAfter = (count: number): AsyncIterable<number> => ({
      [Symbol.asyncIterator]: () => {
        let given = 0;
        return {
          next: () => (given < count ? Promise.resolve({ done: false as const, value: given++ }) : new Promise<IteratorResult<number>>(() => {})),
          return: () => Promise.resolve({ done: true as const, value: undefined }),
        };
      },
    });
    const idle = { ms: 60_000, error: (first: boolean) => new ProviderError(first ? 'nothing came' : 'it went quiet', undefined, true) };
    for (const [count, message] of [
      [0, 'nothing came'],
      [2, 'it went quiet'],
    ] as const) {
      const received: number[] = [];
      const run = (async () => {
        for await (const item of untilAborted(quietAfter(count), undefined, idle)) received.push(item);
      })();
      // Let the items through (setImmediate is not mocked: it runs once the promises settled), then the quiet passes the limit.
      await new Promise((resolve) => setImmediate(resolve));
      t.mock.timers.tick(60_000);
      await assert.rejects(run, (error: ProviderError) => error.message === message && error.retryable);
      assert.equal(received.length, count);
    }
  });

  test('an idle limit of 0 never ends a stream; items in time keep it going', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const items: number[] = [];
    for await (const item of untilAborted(numbers(3), undefined, { ms: 0, error: () => new ProviderError('never') })) items.push(item);
    for await (const item of untilAborted(numbers(3), undefined, { ms: 10, error: () => new ProviderError('never') })) items.push(item);
    assert.deepEqual(items, [0, 1, 2, 0, 1, 2]);
  });

  test('an already aborted signal yields nothing', async () => {
    await assert.rejects(async () => {
      for await (const _ of untilAborted(numbers(3), AbortSignal.abort())) assert.fail('no item expected');
    }, ProviderAbortedError);
  });
});

describe('unlessAborted', () => {
  test('settles as the promise does while the signal stays quiet', async () => {
    assert.equal(await unlessAborted(Promise.resolve(7), new AbortController().signal), 7);
    await assert.rejects(unlessAborted(Promise.reject(new Error('refused')), new AbortController().signal), /refused/);
  });

  test('rejects at once when the signal aborts, though the promise never settles', async () => {
    const controller = new AbortController();
    const waiting = unlessAborted(new Promise<never>(() => {}), controller.signal);
    controller.abort();
    await assert.rejects(waiting, ProviderAbortedError);
    await assert.rejects(unlessAborted(Promise.resolve(1), AbortSignal.abort()), ProviderAbortedError);
  });
});

async function* numbers(count: number): AsyncGenerator<number> {
  for (let i = 0; i < count; i++) yield i;
}
