// Navigation belongs to the user: the real panel bundle in Chromium, connected to the real panel
// backend (TaskController + PanelMessenger) in this process, with a task waiting for the provider
// setup. The views the user opens (from the view title bar, as its commands do, or inside the
// panel) stay open across the snapshots that keep coming, and the waiting task starts on Save.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { Emitter } from '../../../src/panel/event-emitter.js';
import { createMessageHandlers } from '../../../src/panel/message-handlers.js';
import { PanelMessenger } from '../../../src/panel/panel-messenger.js';
import type { EditReview, PanelProviderSettings, ProviderChoice } from '../../../src/panel/panel-ports.js';
import { TaskController } from '../../../src/panel/task-controller.js';
import { TransportEndpoint } from '../../../src/panel/transport-endpoint.js';
import { WebviewInteractions } from '../../../src/panel/webview-interactions.js';
import type { HostMessage, ProviderSettingsView, WebviewMessage } from '../../../src/shared/protocol.js';
import { missingSetup } from '../../../src/shared/provider-setup.js';
import { createLinkedPair } from '../../../src/shared/transport.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { usePanelSuite, type PanelPage } from './webview-page.js';
import { NO_MCP_REQUESTS } from '../../helpers/no-mcp-requests.js';

const TASK = 'Say hello';
const ANSWER = 'Hello from the scripted model.';
// Each view's mark: the chat by its Task box (its welcome heading goes once a task is open), the others by their heading.
const VIEWS = {
  chat: { role: 'textbox', name: 'Task' },
  settings: { role: 'heading', name: 'Settings' },
  history: { role: 'heading', name: 'History' },
  mcp: { role: 'heading', name: 'MCP servers' },
} as const;
type ViewName = keyof typeof VIEWS;

describe('a task waiting for the setup never takes over navigation (Chromium + panel backend)', { timeout: 240_000 }, () => {
  const fixture = useTaskFixture();
  const suite = usePanelSuite();
  let panel: PanelPage;
  beforeEach(() => (panel = suite.panel));

  /** Connects the page to a real controller whose settings start as "OpenAI-compatible, no base URL". */
  async function connect() {
    const edits: EditReview = { streamPartial: () => {}, present: async () => {}, accept: async () => ({}), reject: async () => {}, discard: async () => {} };
    const interactions = new WebviewInteractions(edits, () => fixture.ws.root);
    const harness = new ToolHarness(fixture.ws.root);
    const notices: string[] = [];
    const host = {
      ...harness.host,
      approvals: interactions.approvals,
      questions: interactions.questions,
      notify: (_level: string, message: string) => void notices.push(message),
    };
    const changed = new Emitter<void>();
    let choice: ProviderChoice = { provider: 'openai-compatible', model: '', baseUrl: '' };
    const view = (): ProviderSettingsView => ({ ...choice, toolProtocol: 'xml', hasApiKey: false, missing: missingSetup(choice, false) });
    const settings: PanelProviderSettings = {
      basics: view,
      view: async () => view(),
      // As VS Code writes them: one setting at a time, each a change event the controller hears.
      save: async (saved) => {
        for (const key of ['model', 'baseUrl', 'provider'] as const) {
          choice = { ...choice, [key]: saved[key] };
          changed.fire();
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      },
      listModels: async () => {
        throw new Error('not listed in this test');
      },
      disabledRules: () => [],
      saveDisabledRules: async () => {},
      autoApprove: () => ({ readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 }),
      saveAutoApprove: async () => {},
      onDidChange: changed.event,
      createEnvironment: async () => {
        if (missingSetup(choice, false).length > 0) return undefined;
        const provider = createProvider({ provider: 'openai-compatible', model: choice.model, apiKey: 'k', baseUrl: choice.baseUrl });
        return fixture.environment(provider, host);
      },
    };
    const controller = new TaskController({
      storageDir: fixture.storage,
      cwd: () => fixture.ws.root,
      host,
      settings,
      interactions,
      edits,
      saveExport: async () => {},
      checkpointViews: { showChanges: async () => {}, confirm: async () => false, openFile: async () => {} },
    });
    const [pageEnd, hostEnd] = createLinkedPair<WebviewMessage, HostMessage>();
    const messenger = new PanelMessenger(new TransportEndpoint(hostEnd), controller, createMessageHandlers(controller, NO_MCP_REQUESTS), {
      throttleMs: 0,
    });
    // Host → page, in order; the page's posts → host. The harness stops answering requests itself.
    let delivering = Promise.resolve();
    let closed = false;
    const received: HostMessage[] = [];
    pageEnd.onMessage((message) => {
      received.push(message);
      delivering = delivering.then(() => (closed ? undefined : panel.send(message)));
    });
    await panel.page.exposeFunction('__toHost', (message: WebviewMessage) => pageEnd.send(message));
    await panel.page.evaluate(() => {
      const w = window as unknown as { __host: { replies: string }; __posted: unknown[]; __toHost(m: unknown): void };
      w.__host.replies = 'manual';
      const push = w.__posted.push.bind(w.__posted);
      w.__posted.push = (...messages: unknown[]) => {
        for (const message of messages) w.__toHost(message);
        return push(...messages);
      };
    });
    pageEnd.send({ type: 'ready' });
    const snapshots = () => received.filter((m) => m.type === 'snapshot').length;
    return {
      controller,
      notices,
      /** Makes the host send `count` more snapshots (a settings refresh each, the setup still incomplete) and waits until the page has them. */
      async roundTrips(count: number) {
        for (let i = 0; i < count; i++) {
          const before = snapshots();
          changed.fire();
          await until(() => snapshots() > before, 'a snapshot');
          await delivering;
        }
      },
      /** Stops the host; what it still sends is not delivered to a page that is closing. */
      close: async () => {
        messenger.dispose();
        await controller.cancel();
        controller.dispose();
        closed = true;
        await delivering;
      },
    };
  }

  async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!(await ready())) {
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The views on screen (one, unless the routing is broken). */
  async function shownViews(): Promise<ViewName[]> {
    const shown: ViewName[] = [];
    for (const [name, mark] of Object.entries(VIEWS) as [ViewName, (typeof VIEWS)[ViewName]][]) {
      if ((await panel.page.getByRole(mark.role, { name: mark.name, exact: true }).count()) > 0) shown.push(name);
    }
    return shown;
  }

  async function expectView(view: ViewName): Promise<void> {
    await panel.page.getByRole(VIEWS[view].role, { name: VIEWS[view].name, exact: true }).waitFor();
    assert.deepEqual(await shownViews(), [view]);
  }

  test('MCP Servers, History and Settings stay open across later snapshots; the task and its words wait, and start on Save', async () => {
    const { page } = panel;
    const host = await connect();
    try {
      await expectView('chat');
      await page.getByRole('textbox', { name: 'Task' }).fill(TASK);
      await page.getByRole('button', { name: 'Send' }).click();

      // The setup opens and says, in a region screen readers announce, what is missing and what waits.
      await expectView('settings');
      const explanation = page.getByRole('alert').filter({ hasText: "needs the server's address" });
      await explanation.getByText(TASK).waitFor();

      // The view title bar's commands (controller.showView, as src/host/vscode/commands.ts calls it).
      for (const view of ['mcp', 'history', 'settings'] as const) {
        host.controller.showView(view);
        await expectView(view);
        await host.roundTrips(4);
        await expectView(view);
        assert.equal(host.controller.snapshot().pendingTask, TASK, `the task still waits in ${view}`);
        assert.equal(host.controller.takeInserts().length, 0, 'the task was not put back into the Task box');
      }

      // The panel's own navigation: back to the chat, which says what waits; then History from there.
      await page.getByRole('button', { name: 'Back to chat' }).click();
      await expectView('chat');
      const callout = page.getByRole('region', { name: 'Set up a model provider' });
      await callout.getByText(TASK).waitFor();
      await host.roundTrips(3);
      await expectView('chat');
      assert.equal(await page.getByRole('textbox', { name: 'Task' }).inputValue(), '', 'the waiting task went into the Task box');

      // Setup completed: from the card, fill the address and the model, Save; the task starts and the chat shows its answer.
      await callout.getByRole('button', { name: 'Set up provider' }).click();
      await expectView('settings');
      await host.roundTrips(2);
      await expectView('settings');
      fixture.server.enqueue({ text: `<attempt_completion>\n<result>${ANSWER}</result>\n</attempt_completion>` });
      await page.getByLabel('Default model', { exact: true }).fill('scripted-model');
      await page.getByLabel('Base URL').fill(fixture.server.openAiBaseUrl);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.locator('.completion-card').getByText(ANSWER).waitFor();
      await expectView('chat');
      assert.equal(fixture.server.requests.length, 1);
      assert.match(JSON.stringify(fixture.server.requests[0]!.body), /Say hello/);
      assert.equal(host.controller.snapshot().pendingTask, undefined);
      assert.deepEqual(host.notices, []);
    } finally {
      await host.close();
    }
  });

  test('a setup completed elsewhere starts the waiting task while the user stays in the view they chose', async () => {
    const { page } = panel;
    const host = await connect();
    try {
      await page.getByRole('textbox', { name: 'Task' }).fill(TASK);
      await page.getByRole('button', { name: 'Send' }).click();
      await expectView('settings');
      host.controller.showView('history');
      await expectView('history');
      // Saved in the other webview (or the settings file): the task starts, History stays.
      fixture.server.enqueue({ text: `<attempt_completion>\n<result>${ANSWER}</result>\n</attempt_completion>` });
      await host.controller.saveSettings({ provider: 'openai-compatible', model: 'scripted-model', baseUrl: fixture.server.openAiBaseUrl });
      await until(() => host.controller.snapshot().task?.status === 'completed', 'the task to complete');
      assert.equal(fixture.server.requests.length, 1);
      await host.roundTrips(2);
      await expectView('history');
      await page.getByRole('button', { name: 'Back to chat' }).click();
      await page.locator('.completion-card').getByText(ANSWER).waitFor();
    } finally {
      await host.close();
    }
  });

  test('a Save writing its settings one by one starts the waiting task once, with the whole of them', async () => {
    const host = await connect();
    try {
      await host.controller.newTask(TASK);
      // A first Save names a server but no model: the task waits on.
      await host.controller.saveSettings({ provider: 'openai-compatible', model: '', baseUrl: 'http://127.0.0.1:9/v1' });
      assert.equal(host.controller.snapshot().pendingTask, TASK);
      // The second is complete once its model is written, before its address is: it must start against the new address.
      fixture.server.enqueue({ text: `<attempt_completion>\n<result>${ANSWER}</result>\n</attempt_completion>` });
      await host.controller.saveSettings({ provider: 'openai-compatible', model: 'scripted-model', baseUrl: fixture.server.openAiBaseUrl });
      await until(() => host.controller.snapshot().task?.status === 'completed' || host.controller.snapshot().task?.status === 'failed', 'the task to end');
      assert.equal(host.controller.snapshot().task?.status, 'completed');
      assert.equal(fixture.server.requests.length, 1);
      assert.deepEqual(host.notices, []);
    } finally {
      await host.close();
    }
  });

  test('putting the waiting task back fills the Task box; it then no longer starts on Save', async () => {
    const { page } = panel;
    const host = await connect();
    try {
      await page.getByRole('textbox', { name: 'Task' }).fill(TASK);
      await page.getByRole('button', { name: 'Send' }).click();
      await expectView('settings');
      await page.getByRole('button', { name: 'Put it back in the Task box' }).click();
      await expectView('chat');
      await until(async () => (await page.getByRole('textbox', { name: 'Task' }).inputValue()).trim() === TASK, 'the task in the Task box');
      assert.equal(host.controller.snapshot().pendingTask, undefined);
      await host.controller.saveSettings({ provider: 'openai-compatible', model: 'scripted-model', baseUrl: fixture.server.openAiBaseUrl });
      await host.roundTrips(2);
      assert.equal(fixture.server.requests.length, 0, 'a task given back started anyway');
      assert.equal(host.controller.snapshot().task, undefined);
      await expectView('chat');
    } finally {
      await host.close();
    }
  });
});
