import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { ApiProvider, ProviderConfig } from '../../../src/core/providers/types.js';
import { ProviderError } from '../../../src/core/providers/types.js';
import { SecretRedactor } from '../../../src/core/secrets/secret-redactor.js';
import {
  keysInUseRedactor,
  openSession,
  sessionProviders,
  type ModelSettings,
  type SessionPorts,
  type SessionSettings,
} from '../../../src/core/session/open-session.js';
import type { TaskEnvironment } from '../../../src/core/session/task-environment.js';
import { Task } from '../../../src/core/task/task.js';
import type { McpTaskWiring } from '../../../src/core/tools/mcp-tools.js';
import type { ToolHandler } from '../../../src/core/tool-kit/tool-spec.js';
import { useInMemoryTask } from '../../helpers/in-memory-task.js';
import { completeTurn, ScriptedProvider, toolTurn } from '../../helpers/scripted-provider.js';

const main: ProviderConfig = { provider: 'openai-compatible', model: 'main-model', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-main-key-1234567890' };

/** Builds a provider per config, as a host does, and remembers what it was asked for. */
function recordingBuilder(): { build(config: ProviderConfig): ApiProvider; built: ProviderConfig[] } {
  const built: ProviderConfig[] = [];
  const build = (config: ProviderConfig): ApiProvider => {
    built.push(config);
    return new ScriptedProvider({ modelId: config.model });
  };
  return { built, build };
}

describe('sessionProviders: the one choice of each mode’s model', () => {
  it('a mode’s own API profile wins over its model; a mode model equal to the main one adds nothing', () => {
    const { build, built } = recordingBuilder();
    const planProfile: ProviderConfig = { provider: 'anthropic', model: 'thinker', apiKey: 'sk-ant-x' };
    const providers = sessionProviders({ main, profiles: { plan: planProfile }, modeModels: { plan: 'ignored-model', act: 'main-model' } }, build);
    assert.equal(providers.main.modelId, 'main-model');
    assert.deepEqual(Object.keys(providers.forMode ?? {}), ['plan']);
    assert.equal(providers.forMode?.plan?.modelId, 'thinker');
    // Every provider is built with the host's builder, the main one first.
    assert.deepEqual(built, [main, planProfile]);
  });

  it('a mode model on the main provider keeps every other field of the main settings', () => {
    const { build, built } = recordingBuilder();
    const providers = sessionProviders({ main, modeModels: { act: 'doer' } }, build);
    assert.equal(providers.forMode?.act?.modelId, 'doer');
    assert.equal(providers.forMode?.plan, undefined);
    assert.deepEqual(built[1], { ...main, model: 'doer' });
  });

  it('without a mode of its own there is no per-mode provider at all', () => {
    const providers = sessionProviders({ main, modeModels: { plan: '', act: '' } }, recordingBuilder().build);
    assert.equal(providers.forMode, undefined);
  });

  it('a profile that cannot be built says it is that mode’s profile, before anything opens', () => {
    assert.throws(
      () => sessionProviders({ main, profiles: { act: { provider: 'anthropic', model: 'claude-x' } } }),
      (error: unknown) => error instanceof ProviderError && /^Act mode's API profile: No API key for Anthropic/.test(error.message),
    );
  });

  it('the keys in use are redacted, and the MCP servers’ credentials as they are when redacting', () => {
    let credentials = ['mcp-token-aaaaaaaaaaaa'];
    const models: ModelSettings = { main, profiles: { plan: { provider: 'anthropic', model: 'thinker', apiKey: 'sk-ant-profile-key-99' } } };
    const redactor = keysInUseRedactor(models, { credentials: () => credentials });
    const text = 'sk-main-key-1234567890 sk-ant-profile-key-99 mcp-token-aaaaaaaaaaaa mcp-token-bbbbbbbbbbbb';
    assert.equal(redactor.redact(text), '[REDACTED] [REDACTED] [REDACTED] mcp-token-bbbbbbbbbbbb');
    credentials = ['mcp-token-bbbbbbbbbbbb'];
    assert.match(redactor.redact(text), /mcp-token-aaaaaaaaaaaa \[REDACTED\]$/);
  });
});

describe('openSession: one door from every host', () => {
  const open: TaskEnvironment[] = [];
  // Registered before the fixture's hooks, so the environments end before their workspace is removed.
  afterEach(async () => {
    for (const environment of open.splice(0)) await environment.dispose();
  });
  const fx = useInMemoryTask();

  const settings: SessionSettings = {
    policy: { readFiles: true, editFiles: true, safeCommands: false, allCommands: false, mcpTools: false, outsideWorkspace: false, maxConsecutive: 3 },
    maxIterations: 7,
    maxCost: 2.5,
    autoCondenseAt: 0.6,
    modelOverrides: { contextWindow: 12_345, inputPrice: 1, outputPrice: 2 },
    checkpoints: { enabled: false },
    permissions: [{ effect: 'deny', rule: 'Read(secrets/**)', source: 'test' }],
    hooks: { Stop: [{ matcher: '', hooks: [{ command: 'true', timeoutSeconds: 5, source: 'test' }] }] },
    web: { deniedDomains: ['blocked.example'] },
    disabledRules: () => new Set(['.smithrules']),
  };

  /** What a task is given, in a form two sessions can be compared by. */
  function facts(environment: TaskEnvironment) {
    const options = environment.options;
    return {
      tools: options.tools.specs().map((spec) => spec.name),
      provider: options.provider.modelId,
      planActModels: Object.fromEntries(Object.entries(options.providerForMode ?? {}).map(([mode, provider]) => [mode, provider.modelId])),
      policy: typeof options.policy === 'function' ? options.policy() : options.policy,
      maxIterations: options.maxIterations,
      maxCost: options.maxCost,
      contextPolicy: options.contextPolicy,
      window: options.modelInfo?.(options.provider)?.contextWindow,
      permissions: typeof options.permissions === 'function' ? options.permissions() : options.permissions,
      hooks: options.hooks,
      checkpoints: options.checkpoints !== undefined,
      disabledRules: [...(options.disabledRules?.() ?? [])],
      deniedDomains: environment.browser.access.deniedDomains,
      modes: environment.modes.modes.map((mode) => mode.slug),
    };
  }

  async function session(ports: SessionPorts, models: ModelSettings = { main, modeModels: { plan: 'planner' } }): Promise<TaskEnvironment> {
    const environment = await openSession({
      place: { cwd: fx.ws.root, storageDir: fx.storage },
      providers: sessionProviders(models, recordingBuilder().build),
      settings,
      ports,
    });
    open.push(environment);
    return environment;
  }

  it('the same settings give the same environment whichever host’s ports open it', async () => {
    const terminal = await session({ host: fx.host, redactor: new SecretRedactor() });
    const editor = await session({ host: { ...fx.host, notify: () => {} }, hostEnvironment: () => ['# VSCode Visible Files\nsrc/a.ts'] });
    assert.deepEqual(facts(editor), facts(terminal));
    // And every setting arrived.
    const got = facts(terminal);
    assert.equal(got.provider, 'main-model');
    assert.deepEqual(got.planActModels, { plan: 'planner' });
    assert.deepEqual(got.policy, settings.policy);
    assert.equal(got.maxIterations, 7);
    assert.equal(got.maxCost, 2.5);
    assert.deepEqual(got.contextPolicy, { autoCondenseThreshold: 0.6 });
    assert.equal(got.window, 12_345);
    assert.deepEqual(got.permissions, settings.permissions);
    assert.deepEqual(got.hooks, settings.hooks);
    assert.equal(got.checkpoints, false);
    assert.deepEqual(got.disabledRules, ['.smithrules']);
    assert.deepEqual(got.deniedDomains, ['blocked.example']);
    assert.ok(got.tools.includes('read_file') && got.tools.includes('use_subagents'));
  });

  it('what a host supplies reaches the task: its environment sections, redactor and MCP wiring', async () => {
    const redactor = new SecretRedactor();
    const mcpTool: ToolHandler = {
      spec: { name: 'use_mcp_tool', group: 'mcp', description: 'Calls a tool of an MCP server.', params: [], example: '<use_mcp_tool>\n</use_mcp_tool>' },
      execute: async () => ({ kind: 'result', output: '' }),
    };
    let waited = 0;
    const mcp: McpTaskWiring = {
      tools: [mcpTool],
      promptSections: () => ['# MCP servers\n(none connected)'],
      hiddenTools: () => new Set(['use_mcp_tool']),
      credentials: () => [],
      ready: async () => void waited++,
    };
    const environment = await session({ host: fx.host, redactor, mcp, hostEnvironment: () => ['# VSCode Open Tabs\nsrc/b.ts'] });
    const options = environment.options;
    assert.equal(options.redactor, redactor);
    assert.equal(options.tools.get('use_mcp_tool'), mcpTool);
    assert.deepEqual([...(options.hiddenTools?.() ?? [])], ['use_mcp_tool']);
    assert.ok(options.extraPromptSections?.().includes('# MCP servers\n(none connected)'));
    await options.waitForTools?.(new AbortController().signal);
    assert.equal(waited, 1);
    assert.deepEqual(options.environmentSections?.(), ['# VSCode Open Tabs\nsrc/b.ts']);
    // A host without them adds none.
    const bare = await session({ host: fx.host });
    assert.equal(bare.options.tools.get('use_mcp_tool'), undefined);
    assert.equal(bare.options.redactor, undefined);
    assert.deepEqual(bare.options.environmentSections?.(), []);
  });

  it('a switch of mode sends the next request to that mode’s model', async () => {
    const planner = new ScriptedProvider({ modelId: 'planner', turns: [toolTurn('plan_mode_respond', { response: 'Step 1, then step 2.' })] });
    const doer = new ScriptedProvider({ modelId: 'doer', turns: [completeTurn('Done.')] });
    const mainProvider = new ScriptedProvider({ modelId: 'main-model' });
    const byModel = new Map<string, ApiProvider>([
      ['main-model', mainProvider],
      ['planner', planner],
      ['doer', doer],
    ]);
    const environment = await openSession({
      place: { cwd: fx.ws.root, storageDir: fx.storage },
      providers: sessionProviders({ main, modeModels: { plan: 'planner', act: 'doer' } }, (config) => byModel.get(config.model)!),
      settings: { ...settings, maxCost: undefined, modelOverrides: undefined, permissions: [], hooks: {} },
      ports: { host: fx.host },
    });
    open.push(environment);
    const task = Task.create(environment.options, 'Plan the change, then make it.', { mode: 'plan' });
    const planned = await task.run();
    assert.deepEqual(planned, { status: 'completed', result: 'Step 1, then step 2.' });
    assert.deepEqual([planner.requests.length, doer.requests.length, mainProvider.requests.length], [1, 0, 0]);
    task.switchMode('act');
    task.addUserMessage('Go ahead.');
    const done = await task.run();
    assert.equal(done.status, 'completed');
    assert.deepEqual([planner.requests.length, doer.requests.length, mainProvider.requests.length], [1, 1, 0]);
    assert.match(doer.requests[0]!.systemPrompt, /attempt_completion/);
  });
});
