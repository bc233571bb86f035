// The panel, when it opens, finishes a checkpoint restore a crash interrupted and tells the user
// through the Host port what it did (here after a real restore process was killed mid-way).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CheckpointStore, restoreJournalFileOf } from '../../../src/core/checkpoints/checkpoint-store.js';
import { NOTHING_IGNORED } from '../../../src/core/workspace/ignore-policy.js';
import { Emitter } from '../../../src/panel/event-emitter.js';
import type { CheckpointViews, EditReview, PanelProviderSettings } from '../../../src/panel/panel-ports.js';
import { TaskController } from '../../../src/panel/task-controller.js';
import { WebviewInteractions } from '../../../src/panel/webview-interactions.js';
import type { ProviderSettingsView } from '../../../src/shared/protocol.js';
import { createTempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';
import { until } from '../../helpers/until.js';

const ws = createTempWorkspace('smith-panel-recover-ws-');
const storage = createTempWorkspace('smith-panel-recover-store-');
after(() => {
  ws.dispose();
  storage.dispose();
});

test('opening the panel finishes an interrupted restore and says what it did', { timeout: 120_000 }, async () => {
  ws.write('a.ts', 'a1');
  ws.write('b.ts', 'b1');
  ws.write('c.ts', 'c1');
  const store = new CheckpointStore({ storageDir: storage.root, workspaceRoot: ws.root, ignore: NOTHING_IGNORED });
  const first = await store.snapshot();
  for (const name of ['a.ts', 'b.ts', 'c.ts']) ws.write(name, 'v2');
  const latest = await store.snapshot();
  const marker = join(storage.root, 'stopped');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '../../fixtures/checkpoint-restore-step-child.ts'), storage.root, ws.root, first.root, latest.root, 'file:1', marker],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await until(() => existsSync(marker), 'the restore to stop after its first file', 60_000);
  child.kill('SIGKILL');
  await exited;
  ws.write('c.ts', 'the user edited this after the crash');

  const notices: Array<{ level: string; message: string }> = [];
  const harness = new ToolHarness(ws.root);
  const edits: EditReview = { streamPartial: () => {}, present: async () => {}, accept: async () => ({}), reject: async () => {}, discard: async () => {} };
  const interactions = new WebviewInteractions(edits, () => ws.root);
  const view: ProviderSettingsView = {
    provider: 'openai-compatible',
    model: 'm',
    baseUrl: 'http://127.0.0.1',
    toolProtocol: 'xml',
    hasApiKey: true,
    missing: [],
  };
  const settings: PanelProviderSettings = {
    basics: () => view,
    view: async () => view,
    save: async () => {},
    createEnvironment: async () => undefined,
    listModels: async () => {
      throw new Error('no model list in this test');
    },
    autoApprove: () => ({ readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 }),
    saveAutoApprove: async () => {},
    disabledRules: () => [],
    saveDisabledRules: async () => {},
    onDidChange: new Emitter<void>().event,
  };
  const checkpointViews: CheckpointViews = { showChanges: async () => {}, confirm: async () => false, openFile: async () => {} };
  const controller = new TaskController({
    storageDir: storage.root,
    cwd: () => ws.root,
    host: { ...harness.host, notify: (level, message) => void notices.push({ level, message }) },
    settings,
    interactions,
    edits,
    saveExport: async () => {},
    checkpointViews,
  });
  try {
    const told = notices.filter((n) => /checkpoint restore/.test(n.message));
    assert.equal(told.length, 1, JSON.stringify(notices));
    assert.equal(told[0]?.level, 'warning');
    assert.match(
      told[0]!.message,
      /was interrupted .* it has now been finished\. 1 file restored now \(b\.ts\), 1 file already restored before it stopped\. Left as they are, because they changed after the restore stopped: c\.ts\./,
    );
    assert.equal(ws.read('a.ts'), 'a1');
    assert.equal(ws.read('b.ts'), 'b1');
    assert.equal(ws.read('c.ts'), 'the user edited this after the crash');
    assert.equal(existsSync(restoreJournalFileOf(store.dir)), false);
  } finally {
    controller.dispose();
    interactions.dispose();
  }
});
