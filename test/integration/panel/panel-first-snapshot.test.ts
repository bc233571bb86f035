// The panel's first snapshot is built from what the host has at once: the stored tasks (a
// long-time user's history is tens of megabytes of logs) are read in the background and arrive
// in a later snapshot; a log that would never answer (a FIFO) holds nothing up.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { TaskLog } from '../../../src/core/log/task-log.js';
import { Emitter } from '../../../src/panel/event-emitter.js';
import { createMessageHandlers } from '../../../src/panel/message-handlers.js';
import type { CheckpointViews, EditReview, PanelProviderSettings } from '../../../src/panel/panel-ports.js';
import { PanelMessenger } from '../../../src/panel/panel-messenger.js';
import { TaskController } from '../../../src/panel/task-controller.js';
import { TransportEndpoint } from '../../../src/panel/transport-endpoint.js';
import { WebviewInteractions } from '../../../src/panel/webview-interactions.js';
import type { HostMessage, PanelState, ProviderSettingsView, WebviewMessage } from '../../../src/shared/protocol.js';
import { createLinkedPair } from '../../../src/shared/transport.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { NO_MCP_REQUESTS } from '../../helpers/no-mcp-requests.js';

const SETTINGS: ProviderSettingsView = {
  provider: 'openai-compatible',
  model: 'm',
  baseUrl: 'http://127.0.0.1',
  toolProtocol: 'xml',
  hasApiKey: true,
  missing: [],
};
const EDITS: EditReview = { streamPartial: () => {}, present: async () => {}, accept: async () => ({}), reject: async () => {}, discard: async () => {} };
const VIEWS: CheckpointViews = { showChanges: async () => {}, confirm: async () => false, openFile: async () => {} };

describe('the panel’s first snapshot', () => {
  let ws: TempWorkspace;
  let storage: string;
  const disposers: (() => void)[] = [];
  beforeEach(() => {
    ws = createTempWorkspace();
    storage = join(ws.root, 'storage');
  });
  afterEach(() => {
    for (const dispose of disposers.splice(0)) dispose();
    ws.dispose();
  });

  function storeTasks(count: number): void {
    for (let i = 0; i < count; i++) {
      const log = TaskLog.create(storage, `task-${i}`, () => 1_000 + i);
      log.append({ type: 'task_started', taskId: `task-${i}`, task: `Task ${i}`, cwd: ws.root, provider: 'p', model: 'm', mode: 'act', modeSlug: 'code' });
      log.append({ type: 'task_completed', result: 'ok' });
    }
  }

  /** A controller and its messenger as VS Code builds them at activation, and the snapshots the page received. */
  function openPanel() {
    const interactions = new WebviewInteractions(EDITS, () => ws.root);
    const settingsChanged = new Emitter<void>();
    const settings: PanelProviderSettings = {
      basics: () => SETTINGS,
      view: async () => SETTINGS,
      save: async () => {},
      createEnvironment: async () => undefined,
      listModels: async () => {
        throw new Error('not listed here');
      },
      autoApprove: () => ({ readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 }),
      saveAutoApprove: async () => {},
      disabledRules: () => [],
      saveDisabledRules: async () => {},
      onDidChange: settingsChanged.event,
    };
    const host = { ...new ToolHarness(ws.root).host, notify: () => {} };
    const controller = new TaskController({
      storageDir: storage,
      cwd: () => ws.root,
      host,
      settings,
      interactions,
      edits: EDITS,
      saveExport: async () => {},
      checkpointViews: VIEWS,
    });
    const [pageEnd, hostEnd] = createLinkedPair<WebviewMessage, HostMessage>();
    const messenger = new PanelMessenger(new TransportEndpoint(hostEnd), controller, createMessageHandlers(controller, NO_MCP_REQUESTS), {
      throttleMs: 0,
    });
    disposers.push(
      () => messenger.dispose(),
      () => controller.dispose(),
    );
    const snapshots: PanelState[] = [];
    const arrived = new Emitter<void>();
    pageEnd.onMessage((message) => {
      if (message.type === 'snapshot') snapshots.push(message.state);
      arrived.fire();
    });
    const until = (what: string, ready: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        if (ready()) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${what}; snapshots: ${JSON.stringify(snapshots.map((s) => s.history.length))}`)),
          60_000,
        );
        const subscription = arrived.event(() => {
          if (!ready()) return;
          clearTimeout(timer);
          subscription.dispose();
          resolve();
        });
      });
    return { messenger, snapshots, until };
  }

  test('is posted on ready before the stored tasks are read; a later snapshot brings the history', async () => {
    storeTasks(40);
    const panel = openPanel();
    // The webview says ready as soon as the extension has set its page: here, before any file was read.
    await panel.messenger.receive({ type: 'ready' });
    await panel.until('the first snapshot', () => panel.snapshots.length > 0);
    const [first] = panel.snapshots;
    assert.equal(first!.historyLoading, true, 'the first snapshot says the history is still being read');
    assert.deepEqual(first!.history, []);
    assert.equal(first!.settings.model, 'm', 'and carries what the host had at once');
    await panel.until('the history', () => panel.snapshots.at(-1)!.historyLoading === undefined);
    const last = panel.snapshots.at(-1)!;
    assert.equal(last.history.length, 40);
    assert.deepEqual(
      last.history.slice(0, 2).map((item) => [item.taskId, item.status]),
      [
        ['task-39', 'completed'],
        ['task-38', 'completed'],
      ],
    );
  });

  test('a stored log that would never answer (a FIFO where the log belongs) does not hold the history up', async () => {
    storeTasks(3);
    mkdirSync(join(storage, 'tasks', 'fifo'), { recursive: true });
    execFileSync('mkfifo', [join(storage, 'tasks', 'fifo', 'events.jsonl')]);
    const panel = openPanel();
    await panel.messenger.receive({ type: 'ready' });
    await panel.until('the history', () => panel.snapshots.at(-1)?.historyLoading === undefined && panel.snapshots.length > 0);
    assert.deepEqual(
      panel.snapshots.at(-1)!.history.map((item) => item.taskId),
      ['task-2', 'task-1', 'task-0'],
    );
  });
});
