// The panel backend in a multi-root workspace, without VS Code: the workspace's folders as VS
// Code lists them become the task's folders (the host's mapping), mentions complete and attach
// across them, and a task works in all of them against the scripted model server.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { DEFAULT_POLICY } from '../../../src/core/log/approval-policy.js';
import type { TaskOutcome } from '../../../src/core/task/task.js';
import type { WorkspaceFolderInput } from '../../../src/core/workspace/workspace-roots.js';
import { editorWorkspaceRoots, localWorkspaceFolders, type EditorWorkspaceFolder } from '../../../src/panel/workspace-folders.js';
import { Emitter } from '../../../src/panel/event-emitter.js';
import type { CheckpointViews, EditReview, PanelProviderSettings } from '../../../src/panel/panel-ports.js';
import { TaskController } from '../../../src/panel/task-controller.js';
import { WebviewInteractions } from '../../../src/panel/webview-interactions.js';
import type { ProviderSettingsView } from '../../../src/shared/protocol.js';
import { allText, systemPromptOf, useTaskFixture } from '../../helpers/agent-fixture.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

const SETTINGS: ProviderSettingsView = {
  provider: 'openai-compatible',
  model: 'scripted-model',
  baseUrl: 'http://127.0.0.1',
  toolProtocol: 'xml',
  hasApiKey: true,
  missing: [],
};
const folder = (path: string, name: string, scheme = 'file'): EditorWorkspaceFolder => ({ name, uri: { scheme, fsPath: path } });

describe('the panel in a multi-root workspace', { timeout: 60_000 }, () => {
  const fixture = useTaskFixture();
  let extra: TempWorkspace;
  let lib: string;
  let editorFolders: EditorWorkspaceFolder[];
  const closers: (() => void)[] = [];
  beforeEach(() => {
    extra = createTempWorkspace('smith-panel-roots-');
    lib = join(extra.root, 'lib');
    mkdirSync(join(lib, 'src'), { recursive: true });
    writeFileSync(join(lib, 'src/util.ts'), 'export const UTIL = "in the second folder";\n');
    // A remote folder has no files on disk here: it is left out.
    editorFolders = [folder(fixture.ws.root, 'app'), folder('/remote/x', 'remote', 'vscode-remote'), folder(lib, 'Shared')];
  });
  afterEach(() => {
    for (const close of closers.splice(0)) close();
    extra.dispose();
  });

  function openPanel(askForEdits = false) {
    const harness = new ToolHarness(fixture.ws.root);
    const reviews: string[] = [];
    const edits: EditReview = {
      streamPartial: () => {},
      present: async (path) => void reviews.push(path),
      accept: async () => ({}),
      reject: async () => {},
      discard: async () => {},
    };
    // The same mapping the extension makes from vscode.workspace.workspaceFolders.
    const folders = () => localWorkspaceFolders(editorFolders);
    const interactions = new WebviewInteractions(edits, () => editorWorkspaceRoots(folders()) ?? '');
    const host = { ...harness.host, approvals: interactions.approvals, questions: interactions.questions };
    const given: (readonly WorkspaceFolderInput[] | undefined)[] = [];
    const settings: PanelProviderSettings = {
      basics: () => SETTINGS,
      view: async () => SETTINGS,
      save: async () => {},
      listModels: async () => {
        throw new Error('not used here');
      },
      disabledRules: () => [],
      saveDisabledRules: async () => {},
      autoApprove: () => ({ readFiles: true, editFiles: false, safeCommands: false, allCommands: false, mcpTools: false, maxRequests: 25 }),
      saveAutoApprove: async () => {},
      onDidChange: new Emitter<void>().event,
      createEnvironment: async (_cwd, additionalRoots) => {
        given.push(additionalRoots);
        const provider = createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl });
        return fixture.environment(provider, host, { ...(additionalRoots ? { additionalRoots } : {}), ...(askForEdits ? { policy: DEFAULT_POLICY } : {}) });
      },
    };
    const checkpointViews: CheckpointViews = { showChanges: async () => {}, confirm: async () => false, openFile: async () => {} };
    const controller = new TaskController({
      storageDir: fixture.storage,
      cwd: () => folders().primary,
      additionalRoots: () => folders().others,
      host,
      settings,
      interactions,
      edits,
      saveExport: async () => {},
      checkpointViews,
    });
    const ended = () =>
      new Promise<TaskOutcome>((resolve) => {
        const subscription = controller.onTaskEnded((end) => {
          subscription.dispose();
          resolve(end.outcome);
        });
      });
    closers.push(() => {
      controller.dispose();
      interactions.dispose();
    });
    return { controller, interactions, given, reviews, ended };
  }

  test("VS Code's folders map to the primary folder and the others, by the names the editor shows", () => {
    assert.deepEqual(localWorkspaceFolders(editorFolders), { primary: fixture.ws.root, others: [{ path: lib, name: 'Shared' }] });
    assert.deepEqual(localWorkspaceFolders(undefined), { primary: undefined, others: [] });
    assert.deepEqual(localWorkspaceFolders([folder('/remote/x', 'remote', 'vscode-remote')]), { primary: undefined, others: [] });
    const roots = editorWorkspaceRoots({
      primary: fixture.ws.root,
      others: [
        { path: lib, name: 'Shared' },
        { path: join(extra.root, 'gone'), name: 'gone' },
      ],
    });
    assert.deepEqual(
      roots?.all.map((r) => r.name),
      [roots?.primary.name, 'Shared'],
      'a folder missing on disk is left out of shown paths',
    );
  });

  test('completions reach every folder; a task attaches, reads and edits in the second folder by its name', async () => {
    fixture.ws.write('src/main.ts', 'import { UTIL } from "shared";\n');
    const panel = openPanel();
    await panel.controller.listRequests.suggestMentions('util');
    assert.equal(panel.controller.snapshot().mentionSuggestions?.items[0]?.value, 'Shared/src/util.ts');

    fixture.server.enqueue({ text: '<read_file>\n<path>Shared/src/util.ts</path>\n</read_file>' });
    fixture.server.enqueue({
      text: '<replace_in_file>\n<path>Shared/src/util.ts</path>\n<diff>\n------- SEARCH\nexport const UTIL = "in the second folder";\n=======\nexport const UTIL = "edited from the panel";\n+++++++ REPLACE\n</diff>\n</replace_in_file>',
    });
    fixture.server.enqueue({ text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' });
    const ended = panel.ended();
    await panel.controller.newTask('Check @Shared/src/util.ts');
    assert.equal((await ended).status, 'completed');
    assert.deepEqual(panel.given, [[{ path: lib, name: 'Shared' }]]);
    const first = fixture.server.requestAt(0);
    assert.match(systemPromptOf(first), /folder "Shared", addressed as Shared\/path/);
    assert.match(allText(first), /<file path="Shared\/src\/util\.ts">\nexport const UTIL/);
    assert.match(allText(fixture.server.requestAt(1)), /in the second folder/);
    assert.equal(extra.read('lib/src/util.ts'), 'export const UTIL = "edited from the panel";\n');
  });

  test('an approval for a file in the second folder opens the diff on that file', async () => {
    const panel = openPanel(true);
    fixture.server.enqueue({ text: '<write_to_file>\n<path>Shared/src/new.ts</path>\n<content>export const NEW = 1;\n</content>\n</write_to_file>' });
    fixture.server.enqueue({ text: '<attempt_completion>\n<result>Done.</result>\n</attempt_completion>' });
    const ended = panel.ended();
    const approvals = panel.interactions.onDidChange(() => {
      const pending = panel.interactions.pendingApproval;
      if (pending) panel.interactions.answerApproval(pending.callId, true);
    });
    closers.push(() => approvals.dispose());
    await panel.controller.newTask('Add a file');
    assert.equal((await ended).status, 'completed');
    assert.deepEqual(panel.reviews, [join(lib, 'src/new.ts')]);
    assert.equal(extra.read('lib/src/new.ts'), 'export const NEW = 1;\n');
  });

  test('a folder that no longer exists stops the task with the folder named', async () => {
    editorFolders = [folder(fixture.ws.root, 'app'), folder(join(extra.root, 'gone'), 'gone')];
    const panel = openPanel();
    await assert.rejects(panel.controller.newTask('Do it'), new RegExp(`Workspace folder does not exist: ${join(extra.root, 'gone')}`));
    assert.equal(fixture.server.requests.length, 0);
  });
});
