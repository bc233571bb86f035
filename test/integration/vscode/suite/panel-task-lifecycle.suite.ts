// The panel's task controller around the edges of a task's life: settings saved while a finished
// task is open, a new_task hand-over, a task cut off by a reload, and a task typed before any
// provider was set up. Real engine, real settings and SecretStorage, scripted LLM server.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { TaskLog } from '../../../../src/core/log/task-log';
import { DiffApproval } from '../../../../src/host/vscode/diff-approval';
import { EditDiagnostics } from '../../../../src/host/vscode/edit-diagnostics';
import { saveWithDialog } from '../../../../src/host/vscode/export-target';
import { VsCodePanelSettings } from '../../../../src/host/vscode/panel-settings';
import { ProviderKeys } from '../../../../src/host/vscode/settings';
import type { SmithApi } from '../../../../src/host/vscode/smith-api';
import { TaskController } from '../../../../src/panel/task-controller';
import { createVsCodeTaskEnvironment } from '../../../../src/host/vscode/task-options';
import { TerminalProcessPort } from '../../../../src/host/vscode/terminal-process-port';
import { createVsCodeHost } from '../../../../src/host/vscode/vscode-host';
import { VsCodeFileSystem } from '../../../../src/host/vscode/vscode-file-system';
import { WebviewInteractions } from '../../../../src/panel/webview-interactions';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../fixtures/scripted-llm-server';
import { MemorySecrets } from './memory-secrets';
import { isPidAlive } from '../../../helpers/pid-liveness';
import { until } from '../../../helpers/until';

const workspace = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const SETTINGS = ['provider', 'baseUrl', 'model', 'autoApprove.editFiles', 'autoApprove.safeCommands'];
const completion = (text: string) => `<attempt_completion>\n<result>${text}</result>\n</attempt_completion>`;

async function configure(server: ScriptedLlmServer): Promise<void> {
  const config = vscode.workspace.getConfiguration('smith');
  const target = vscode.ConfigurationTarget.Global;
  await config.update('provider', 'openai-compatible', target);
  await config.update('baseUrl', server.openAiBaseUrl, target);
  await config.update('model', 'scripted-model', target);
  await config.update('autoApprove.editFiles', false, target);
  await config.update('autoApprove.safeCommands', true, target);
}

/** A TaskController with an in-memory key store and no environment keys; `beforeDispose` runs before a task's environment is disposed. */
function ownController(beforeDispose: () => Promise<void> = async () => {}) {
  const secrets = new MemorySecrets();
  const keys = new ProviderKeys(secrets, {});
  const files = new VsCodeFileSystem();
  const diff = new DiffApproval(files, { schemePrefix: `smith-lifecycle-${++controllers}` });
  const interactions = new WebviewInteractions(diff, () => workspace);
  const processes = new TerminalProcessPort();
  const log = vscode.window.createOutputChannel('Smith lifecycle test', { log: true });
  const host = createVsCodeHost({ files, interactions, processes, diagnostics: new EditDiagnostics(), log });
  const settings = new VsCodePanelSettings({
    storageDir: storageDirOf(),
    host,
    keys,
    createEnvironment: async (inputs) => {
      const environment = await createVsCodeTaskEnvironment(inputs);
      return {
        ...environment,
        dispose: async () => {
          await beforeDispose();
          await environment.dispose();
        },
      };
    },
  });
  const controller = new TaskController({
    storageDir: storageDirOf(),
    cwd: () => workspace,
    host,
    settings,
    interactions,
    edits: diff,
    saveExport: saveWithDialog,
    checkpointViews: { showChanges: async () => {}, confirm: async () => false, openFile: async () => {} },
  });
  const close = () => {
    controller.dispose();
    settings.dispose();
    diff.dispose();
    interactions.dispose();
    processes.dispose();
    log.dispose();
  };
  return { controller, secrets, keys, close };
}
let controllers = 0;
let storageDirOf: () => string = () => {
  throw new Error('the suite has not started');
};

describe('Panel task lifecycle', function () {
  this.timeout(120_000);
  let api: SmithApi;
  let server: ScriptedLlmServer;

  before(async () => {
    api = await vscode.extensions.getExtension<SmithApi>('smith.smith')!.activate();
    storageDirOf = () => api.storageDir;
    server = await startScriptedLlmServer();
    await configure(server);
  });

  afterEach(async () => {
    // Leaving a task stops nothing: each test's tasks are stopped and closed, so none answers the next test's model replies or approvals.
    await api.controller.closeAllTasks();
    await configure(server);
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('smith');
    for (const key of SETTINGS) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await api.keys.store('openai-compatible', '');
    await server.close();
  });

  it('saves settings while a finished task is open: refreshes that overlap leave the task intact', async () => {
    let disposals = 0;
    let releaseDisposal = () => {};
    const disposalGate = new Promise<void>((resolve) => (releaseDisposal = resolve));
    // A controller of its own, so the test decides when the key store answers and when the
    // finished task's environment is done disposing (ending its background commands takes time).
    const { controller, secrets, keys, close } = ownController(async () => {
      disposals++;
      await disposalGate;
    });
    try {
      server.enqueue({ text: completion('First done.') });
      await controller.newTask('Say done');
      await until(() => controller.snapshot().task?.status === 'completed', 'the completed task');
      const id = controller.openTaskId;

      // A key event refreshes the settings (nobody awaits it) and blocks while disposing the task.
      await keys.store('openai-compatible', 'sk-race-1');
      await until(() => disposals === 1, 'the first refresh to dispose the task');
      // Save stores another key (a second event) and refreshes again: both read the settings while
      // the first refresh is still disposing the task.
      const readsBefore = secrets.reads;
      const saved = controller.saveSettings({ provider: 'openai-compatible', model: 'scripted-model', baseUrl: server.openAiBaseUrl, apiKey: 'sk-race-2' });
      await until(() => secrets.reads >= readsBefore + 2, 'both refreshes to read the key store');
      await new Promise((resolve) => setTimeout(resolve, 50));
      releaseDisposal();
      await saved;
      assert.equal(controller.openTaskId, id);
      assert.equal(controller.snapshot().task?.status, 'completed');
      assert.equal(controller.snapshot().settings.hasApiKey, true);

      // The open task goes on with the saved key.
      const requestsBefore = server.requests.length;
      server.enqueue({ text: completion('Second done.') });
      await controller.sendMessage('Once more');
      await until(() => controller.snapshot().task?.status === 'completed' && server.requests.length === requestsBefore + 1, 'the continued task');
      assert.equal(server.requests.at(-1)!.headers.authorization, 'Bearer sk-race-2');
      assert.equal(TaskLog.open(api.storageDir, id!).events.filter((e) => e.type === 'task_completed').length, 2);
    } finally {
      releaseDisposal();
      close();
    }
  });

  it('a task sent before any provider is set up waits in the setup and starts once it is saved', async () => {
    const config = vscode.workspace.getConfiguration('smith');
    for (const key of ['provider', 'baseUrl', 'model']) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    const { controller, close } = ownController();
    try {
      // Nothing chosen, no key anywhere: no error, the setup opens with the task kept.
      await until(() => (controller.snapshot().settings.missing?.length ?? 0) > 0, 'the settings to say what is missing');
      await controller.newTask('Write hello.txt');
      let state = controller.snapshot();
      assert.equal(state.view, 'settings');
      assert.equal(state.pendingTask, 'Write hello.txt');
      assert.equal(state.task, undefined);
      assert.deepEqual(state.settings.missing, ['apiKey']);

      // The view title bar's views leave it waiting (never back in the Task box); given back, it no
      // longer waits, and sending it again waits again.
      for (const view of ['mcp', 'history', 'chat', 'settings'] as const) {
        controller.showView(view);
        assert.equal(controller.snapshot().pendingTask, 'Write hello.txt', view);
      }
      assert.deepEqual(controller.takeInserts(), []);
      controller.returnPendingTask();
      assert.deepEqual(controller.takeInserts(), ['Write hello.txt']);
      assert.equal(controller.snapshot().pendingTask, undefined);
      await controller.newTask('Write hello.txt');
      controller.showView('history');

      // An incomplete save keeps it waiting; a complete one starts it.
      await controller.saveSettings({ provider: 'openai-compatible', model: 'scripted-model', baseUrl: '' });
      assert.equal(controller.snapshot().pendingTask, 'Write hello.txt');
      assert.deepEqual(controller.snapshot().settings.missing, ['baseUrl']);
      const before = server.requests.length;
      server.enqueue({ text: completion('Hello written.') });
      await controller.saveSettings({ provider: 'openai-compatible', model: 'scripted-model', baseUrl: server.openAiBaseUrl });
      state = controller.snapshot();
      // Started from the History view: no request moves the panel (the webview that saved shows its chat itself).
      assert.equal(state.view, 'history');
      assert.equal(state.pendingTask, undefined);
      await until(() => controller.snapshot().task?.status === 'completed', 'the started task to complete');
      assert.equal(server.requests.length, before + 1);
      assert.match(JSON.stringify(server.requests.at(-1)!.body), /Write hello\.txt/);
    } finally {
      close();
    }
  });

  it('a task cut off by a reload while it waited for approval shows as interrupted, and Resume continues it', async () => {
    const controller = api.controller;
    server.enqueue({ text: '<write_to_file>\n<path>lifecycle/notes.txt</path>\n<content>\nnotes\n</content>\n</write_to_file>' });
    await controller.newTask('Create lifecycle/notes.txt');
    await until(() => controller.snapshot().task?.status === 'awaiting_approval', 'the approval request');
    // The log as a reload leaves it: the last word is the approval being asked.
    const copyId = `reloaded-${Date.now()}`;
    mkdirSync(join(api.storageDir, 'tasks', copyId), { recursive: true });
    copyFileSync(join(api.storageDir, 'tasks', controller.openTaskId!, 'events.jsonl'), join(api.storageDir, 'tasks', copyId, 'events.jsonl'));
    try {
      await controller.openTask(copyId);
      const view = controller.snapshot().task!;
      assert.equal(view.status, 'interrupted');
      assert.equal(view.pendingApproval, undefined);
      const tool = view.messages.find((m) => m.kind === 'tool');
      assert.equal(tool?.kind === 'tool' && tool.status, 'interrupted');
      assert.equal(controller.snapshot().history.find((item) => item.taskId === copyId)?.status, 'interrupted');

      // Resume: the model hears that the task was interrupted and goes on.
      const before = server.requests.length;
      server.enqueue({ text: completion('Resumed and done.') });
      await controller.retry();
      await until(() => controller.snapshot().task?.status === 'completed', 'the resumed task to complete');
      assert.equal(server.requests.length, before + 1);
      assert.match(JSON.stringify(server.requests.at(-1)!.body), /interrupted/i);
    } finally {
      await controller.closeAllTasks();
      rmSync(join(api.storageDir, 'tasks', copyId), { recursive: true, force: true });
    }
  });

  it('resuming a task first stops the processes its commands left running before the interruption', async () => {
    const controller = api.controller;
    server.enqueue({ text: '<write_to_file>\n<path>lifecycle/orphans.txt</path>\n<content>\nx\n</content>\n</write_to_file>' });
    await controller.newTask('Create lifecycle/orphans.txt');
    await until(() => controller.snapshot().task?.status === 'awaiting_approval', 'the approval request');
    const copyId = `orphaned-${Date.now()}`;
    mkdirSync(join(api.storageDir, 'tasks', copyId), { recursive: true });
    copyFileSync(join(api.storageDir, 'tasks', controller.openTaskId!, 'events.jsonl'), join(api.storageDir, 'tasks', copyId, 'events.jsonl'));
    // A command of the earlier run, still going after the window went away.
    const marker = `lifecycle-${Date.now()}`;
    const orphan = spawn('sleep', ['600'], { detached: true, stdio: 'ignore', env: { ...process.env, SMITH_COMMAND_ID: marker } });
    orphan.unref();
    TaskLog.open(api.storageDir, copyId).append({ type: 'command_started', callId: 'earlier-call', command: 'sleep 600', pid: orphan.pid!, marker });
    try {
      await controller.openTask(copyId);
      assert.ok(isPidAlive(orphan.pid!), 'the leftover runs before the task is resumed');
      server.enqueue({ text: completion('Resumed without the leftover.') });
      await controller.retry();
      await until(() => controller.snapshot().task?.status === 'completed', 'the resumed task to complete');
      await until(() => !isPidAlive(orphan.pid!), 'the leftover to be stopped');
    } finally {
      if (isPidAlive(orphan.pid!)) process.kill(orphan.pid!, 'SIGKILL');
      await controller.closeAllTasks();
      rmSync(join(api.storageDir, 'tasks', copyId), { recursive: true, force: true });
    }
  });

  it('new_task starts the new task with the carried context and the panel follows it', async () => {
    const controller = api.controller;
    const context = 'Carried context: the parser is done; next write the tests for lifecycle/parser.ts.';
    server.enqueue(
      { text: `The history is long; continuing in a new task.\n\n<new_task>\n<context>${context}</context>\n</new_task>` },
      { text: completion('Tests written.') },
    );
    await controller.newTask('Build the parser and its tests');
    const firstId = controller.openTaskId!;
    // new_task asks first, unless the approval policy lets it through; the answer names the task that asks.
    await until(
      () => api.interactions.approvalOf(firstId) !== undefined || controller.openTaskId !== firstId || controller.snapshot().task?.status !== 'running',
      'the new_task approval or hand-over',
      60_000,
    );
    assert.notEqual(controller.snapshot().task?.status, 'failed', JSON.stringify(controller.snapshot().task?.messages));
    const asked = api.interactions.approvalOf(firstId);
    if (asked !== undefined) api.interactions.answerApproval(asked.callId, true, undefined, false, firstId);
    await until(() => controller.openTaskId !== firstId && controller.snapshot().task?.status === 'completed', 'the new task to complete', 60_000);
    // The new task took the first one's place: the first is no longer held, listed or waiting.
    const secondId = controller.openTaskId!;
    const held = controller.liveTasks().map((task) => task.id);
    assert.ok(!held.includes(firstId), `the first task is still held: ${held.join(', ')}`);
    assert.equal(held.filter((id) => id === secondId).length, 1);
    assert.equal(api.interactions.approvalOf(firstId), undefined);
    assert.deepEqual(
      api.interactions.waits().filter((wait) => wait.taskId === firstId),
      [],
    );

    const view = controller.snapshot().task!;
    assert.deepEqual(view.messages[0], { ...view.messages[0], kind: 'task', text: context });
    assert.ok(view.messages.some((m) => m.kind === 'completion' && m.result === 'Tests written.'));
    // The model of the new task was asked with the carried context only.
    const body = JSON.stringify(server.requests.at(-1)!.body);
    assert.match(body, /Carried context: the parser is done/);
    assert.doesNotMatch(body, /Build the parser and its tests/);
    assert.ok(TaskLog.open(api.storageDir, firstId).events.some((e) => e.type === 'new_task_requested'));
    assert.ok(controller.snapshot().history.some((item) => item.taskId === firstId));
  });
});
