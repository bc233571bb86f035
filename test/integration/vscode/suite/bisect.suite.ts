// The panel's "Bisect…" in the real workbench: the test command is asked in VS Code's input box
// (the workspace's last one filled in), progress is reported, and the step found opens in VS
// Code's multi-file diff editor, the passing checkpoint against the failing one. The task is a
// real one, made by the engine against the scripted LLM server; the workspace stays untouched.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { BisectReport } from '../../../../src/core/bisect/run-bisect';
import { APPROVE_ALL_POLICY } from '../../../../src/core/log/approval-policy';
import { createProvider } from '../../../../src/core/providers/create-provider';
import { createTaskEnvironment } from '../../../../src/core/session/task-environment';
import { Task } from '../../../../src/core/task/task';
import { VsCodeBisectViews } from '../../../../src/host/vscode/bisect-views';
import { VsCodeCheckpointViews } from '../../../../src/host/vscode/checkpoint-views';
import { PanelBisects } from '../../../../src/panel/task-bisect';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../fixtures/scripted-llm-server';
import { folderFingerprint } from '../../../helpers/folder-fingerprint';
import { ToolHarness } from '../../../helpers/tool-harness';
import { until } from '../../../helpers/until';

const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const replace = (path: string, search: string, replacement: string) => ({
  text: `<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replacement}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`,
});
const done = { text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' };

/** A Memento in memory: the window's workspace state as the bisect sees it. */
class MemoryState {
  private readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

describe('Bisect… in the workbench', function () {
  this.timeout(180_000);
  let server: ScriptedLlmServer;
  let root: string;
  let workspace: string;
  let storage: string;
  before(async () => {
    server = await startScriptedLlmServer();
    root = realpathSync(mkdtempSync(join(tmpdir(), 'smith-bisect-suite-')));
    workspace = join(root, 'project');
    storage = join(root, 'storage');
  });
  after(() => {
    server.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** A task of four edits; the third breaks add(). */
  async function taskWithBug(): Promise<string> {
    const harness = new ToolHarness(workspace);
    writeFileSync(join(workspace, 'check.js'), "if (require('./lib.js').add(2, 3) !== 5) process.exit(1);\n");
    writeFileSync(join(workspace, 'lib.js'), 'exports.add = (a, b) => a + b;\n');
    const provider = createProvider({ provider: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseUrl: server.openAiBaseUrl });
    const environment = await createTaskEnvironment({
      cwd: workspace,
      storageDir: storage,
      host: harness.host,
      provider,
      policy: APPROVE_ALL_POLICY,
      maxIterations: 10,
    });
    try {
      server.enqueue(
        write('a.txt', 'a'),
        write('b.txt', 'b'),
        replace('lib.js', 'exports.add = (a, b) => a + b;', 'exports.add = (a, b) => a * b;'),
        write('c.txt', 'c'),
        done,
      );
      const task = Task.create({ ...environment.options, retry: { maxRetries: 0 } }, 'Four edits');
      assert.equal((await task.run()).status, 'completed');
      const errors = task.log.events.flatMap((e) => (e.type === 'tool_error' ? [e.error] : []));
      assert.deepEqual(errors, [], 'every edit was made');
      return task.id;
    } finally {
      await environment.dispose();
    }
  }

  it('asks for the command in an input box, shows progress, and opens the failing step in the diff editor', async () => {
    mkdirSync(workspace, { recursive: true });
    const taskId = await taskWithBug();
    const before = folderFingerprint(workspace);
    const state = new MemoryState();
    const views = new VsCodeBisectViews(state);
    // The workspace's last command is what the input box offers.
    await views.remember(workspace, 'node check.js');
    const progress: string[] = [];
    const results: string[] = [];
    const checkpointViews = new VsCodeCheckpointViews();
    const bisects = new PanelBisects({
      storageDir: storage,
      host: { notify: () => {} },
      views: {
        askTestCommand: (value) => views.askTestCommand(value),
        rememberedCommand: (cwd) => views.rememberedCommand(cwd),
        remember: (cwd, command) => views.remember(cwd, command),
        withProgress: (title, work) =>
          views.withProgress(title, (report, signal) =>
            work((line) => {
              progress.push(line);
              report(line);
            }, signal),
          ),
        // The notification's button, chosen as a user would.
        showResult: async (message, _found, actions) => {
          results.push(message);
          return actions[0];
        },
      },
      checkpointViews,
    });
    try {
      const started = bisects.start(taskId);
      let asked = false;
      void started.then(() => (asked = true));
      // Accept the input box as shown (its value: the remembered command) once it is there.
      await until(async () => {
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return asked;
      }, 'the input box accepted');
      const [report] = (await bisects.settled()) as [BisectReport | undefined];
      assert.ok(report, 'the bisect ended');
      assert.equal(report.command, 'node check.js');
      assert.equal(report.outcome, 'found', report.message);
      assert.equal(report.culprit?.firstFailing, '3');
      assert.equal(report.culprit?.steps[0]?.step.params?.path, 'lib.js');
      assert.ok(
        progress.some((line) => /^checkpoint 0: pass$/.test(line)),
        progress.join('\n'),
      );
      assert.ok(
        progress.some((line) => /^checkpoint 3: fail \(exit code 1\)$/.test(line)),
        progress.join('\n'),
      );
      assert.match(results[0] ?? '', /The test fails from checkpoint 3 on: after step replace_in_file path=lib\.js.*Files: lib\.js\./);

      // The diff editor: the passing checkpoint's lib.js on the left, the failing one's on the right.
      const tab = await until(
        () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((t) => t.label.startsWith('Bisect: checkpoint 2 (passes) ↔ 3 (fails)')),
        'the diff editor tab',
      );
      assert.ok(tab);
      const sides = await until(() => {
        const docs = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'smith-checkpoint' && d.uri.path === '/lib.js');
        return docs.length >= 2 ? docs : undefined;
      }, 'both sides of lib.js');
      const texts = sides.map((d) => d.getText());
      assert.ok(texts.some((t) => t.includes('a + b')) && texts.some((t) => t.includes('a * b')), texts.join('\n---\n'));
      assert.equal(folderFingerprint(workspace), before, 'the workspace is untouched');
    } finally {
      bisects.dispose();
      checkpointViews.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
