// The panel backend without VS Code, for tests: the webview's request client talks to the
// TaskController through the in-memory transport, the model is the suite's scripted server, and
// the webview's reducer renders what the host sends (every message validated by the protocol schema).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createProvider } from '../../src/core/providers/create-provider.js';
import { providerModels } from '../../src/core/providers/provider-models.js';
import { loadPermissionSettings } from '../../src/core/permissions/settings-files.js';
import type { HookSettings } from '../../src/core/hooks/hooks.js';
import type { WorktreeSettings } from '../../src/core/worktrees/worktree-types.js';
import { DEFAULT_POLICY } from '../../src/core/log/approval-policy.js';
import { Emitter } from '../../src/panel/event-emitter.js';
import { createMessageHandlers } from '../../src/panel/message-handlers.js';
import { PanelMessenger } from '../../src/panel/panel-messenger.js';
import type { CheckpointViews, EditReview, PanelProviderSettings } from '../../src/panel/panel-ports.js';
import { TaskController } from '../../src/panel/task-controller.js';
import { TransportEndpoint } from '../../src/panel/transport-endpoint.js';
import { WebviewInteractions } from '../../src/panel/webview-interactions.js';
import type { AutoApproveView, HostMessage, ProviderSettingsView, WebviewMessage } from '../../src/shared/protocol.js';
import { createRequestClient } from '../../src/shared/request-client.js';
import { createLinkedPair } from '../../src/shared/transport.js';
import { receiveHostMessage } from '../../webview-ui/src/state/host-messages.js';
import { initialWebviewState, panelReducer, type WebviewState } from '../../webview-ui/src/state/panel-reducer.js';
import type { TaskFixture } from './agent-fixture.js';
import { ToolHarness } from './tool-harness.js';
import { NO_MCP_REQUESTS } from './no-mcp-requests.js';

const SETTINGS: ProviderSettingsView = {
  provider: 'openai-compatible',
  model: 'scripted-model',
  baseUrl: 'http://127.0.0.1',
  toolProtocol: 'xml',
  hasApiKey: true,
  missing: [],
};

/** How a test's panel backend differs from the default (XML, no images, no hooks, unpriced). */
export interface PanelBackendOptions {
  readonly native?: boolean;
  readonly vision?: boolean;
  readonly hooks?: HookSettings;
  readonly model?: () => string;
  readonly maxCost?: number;
  /** `smith.maxTotalCost`, read at every check (a function: a test may change it). */
  readonly maxTotalCost?: () => number | undefined;
  readonly priced?: boolean;
  /** The panel's workspace folder (default: the fixture's). */
  readonly cwd?: string;
  /** `smith.worktree.*` for tasks started in a new worktree. */
  readonly worktree?: WorktreeSettings;
  /** Auto-approve toggles set before the panel opens (default: read files only). */
  readonly autoApprove?: Partial<AutoApproveView>;
  /** How the workspace's mode files are trusted (absent: they are). */
  readonly modeTrust?: ConstructorParameters<typeof TaskController>[0]['modeTrust'];
}

/** Opens a panel backend on the fixture's workspace; `closers` gets what ends it after the test. */
export function openPanelBackend(fixture: TaskFixture, closers: (() => void)[], options: PanelBackendOptions = {}) {
  const harness = new ToolHarness(fixture.ws.root);
  const reviews: string[] = [];
  const edits: EditReview = {
    streamPartial: () => {},
    present: async (path) => void reviews.push(`present ${path}`),
    accept: async (path) => {
      reviews.push(`accept ${path}`);
      return {};
    },
    reject: async (path) => void reviews.push(`reject ${path}`),
    discard: async () => {},
  };
  const interactions = new WebviewInteractions(edits, () => fixture.ws.root);
  const notices: string[] = [];
  const host = {
    ...harness.host,
    approvals: interactions.approvals,
    questions: interactions.questions,
    notify: (_level: string, message: string) => void notices.push(message),
  };
  const settingsChanged = new Emitter<void>();
  let disabledRules: string[] = [];
  let disabledSkills: string[] = [];
  let autoApprove: AutoApproveView = {
    readFiles: true,
    editFiles: false,
    safeCommands: false,
    allCommands: false,
    mcpTools: false,
    maxRequests: 25,
    ...options.autoApprove,
  };
  const settings: PanelProviderSettings = {
    basics: () => SETTINGS,
    view: async () => SETTINGS,
    save: async () => settingsChanged.fire(),
    listModels: async (provider, baseUrl) => {
      const listed = await providerModels({ provider, model: 'none', apiKey: 'k', baseUrl });
      return { provider, baseUrl, ...listed, models: [...listed.models] };
    },
    disabledRules: () => disabledRules,
    permissionRules: () => loadPermissionSettings({ storageDir: fixture.storage, workspaceRoot: fixture.ws.root, trust: () => 'unknown' }).rules,
    saveDisabledRules: async (labels) => {
      disabledRules = [...labels];
      settingsChanged.fire();
    },
    disabledSkills: () => disabledSkills,
    saveDisabledSkills: async (names) => {
      disabledSkills = [...names];
      settingsChanged.fire();
    },
    workspaceSkillsTrusted: () => true,
    autoApprove: () => autoApprove,
    saveAutoApprove: async (change) => {
      const { maxCost, ...rest } = change;
      autoApprove = { ...autoApprove, ...rest, ...(maxCost !== undefined ? { maxCost } : {}) };
      settingsChanged.fire();
    },
    onDidChange: settingsChanged.event,
    worktreeSettings: () => options.worktree ?? {},
    maxTotalCost: () => options.maxTotalCost?.(),
    createEnvironment: async (cwd, _roots, place = {}) => {
      const provider = createProvider({
        provider: 'openai-compatible',
        model: options.model?.() ?? 'scripted-model',
        apiKey: 'k',
        baseUrl: fixture.server.openAiBaseUrl,
        ...(options.native ? { toolProtocol: 'native' as const } : {}),
      });
      return fixture.environment(provider, place.asks ? { ...host, ...place.asks } : host, {
        cwd,
        ...(place.worktree ? { worktree: place.worktree } : {}),
        permissions: () => loadPermissionSettings({ storageDir: fixture.storage, workspaceRoot: fixture.ws.root, trust: () => 'unknown' }).rules,
        disabledRules: () => new Set(disabledRules),
        agentSkills: { disabled: () => new Set(disabledSkills), workspaceTrusted: () => true, homeDir: join(fixture.storage, 'home') },
        policy: () => ({ ...DEFAULT_POLICY, ...autoApprove, maxConsecutive: 0 }),
        ...(options.vision || options.priced
          ? { modelOverrides: { ...(options.vision ? { supportsImages: true } : {}), ...(options.priced ? { inputPrice: 1, outputPrice: 1 } : {}) } }
          : {}),
        ...(options.hooks ? { hooks: options.hooks } : {}),
        ...(options.maxCost !== undefined ? { maxCost: options.maxCost } : {}),
      });
    },
  };
  const exported: { name: string; markdown: string }[] = [];
  const views = {
    comparisons: [] as { title: string; files: { path: string; before: string | undefined; existsNow: boolean }[] }[],
    questions: [] as string[],
    answer: false,
    opened: [] as string[],
  };
  const checkpointViews: CheckpointViews = {
    showChanges: async (title, files) =>
      void views.comparisons.push({ title, files: files.map((f) => ({ path: f.path, before: f.before(), existsNow: f.existsNow })) }),
    confirm: async (message, detail) => {
      views.questions.push(`${message}\n${detail}`);
      return views.answer;
    },
    openFile: async (path) => void views.opened.push(path),
  };
  const controller = new TaskController({
    storageDir: fixture.storage,
    cwd: () => options.cwd ?? fixture.ws.root,
    host,
    settings,
    interactions,
    edits,
    saveExport: async (name, markdown) => void exported.push({ name, markdown }),
    checkpointViews,
    ...(options.modeTrust ? { modeTrust: options.modeTrust } : {}),
  });
  const [pageEnd, hostEnd] = createLinkedPair<WebviewMessage, HostMessage>();
  const messenger = new PanelMessenger(new TransportEndpoint(hostEnd), controller, createMessageHandlers(controller, NO_MCP_REQUESTS), {
    throttleMs: 0,
  });
  const client = createRequestClient((message) => pageEnd.send(message));
  /** The webview's state, every message the host posted to it (as validated), and the messages it refused. */
  const page = { state: initialWebviewState as WebviewState, posted: [] as HostMessage[], problems: [] as string[] };
  /** Every streamed progress line (command output, sub-agents' steps), as the page received it. */
  const progress: string[] = [];
  const arrived = new Emitter<void>();
  pageEnd.onMessage((data) => {
    const message = receiveHostMessage(data, client, (problem) => page.problems.push(problem));
    if (message?.type === 'commandOutput') progress.push(message.text);
    if (message) {
      page.posted.push(message);
      page.state = panelReducer(page.state, message);
    }
    arrived.fire();
  });
  const until = (ready: () => boolean, what: string) =>
    new Promise<void>((resolve) => {
      if (ready()) return resolve();
      const subscription = arrived.event(() => {
        if (!ready()) return;
        subscription.dispose();
        resolve();
      });
    }).then(() => assert.ok(ready(), what));
  closers.push(() => {
    client.dispose();
    pageEnd.close();
    messenger.dispose();
    controller.dispose();
    interactions.dispose();
  });
  pageEnd.send({ type: 'ready' });
  return { page, client, until, reviews, exported, views, notices, progress, controller, interactions };
}
