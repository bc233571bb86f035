// A multi-root workspace in the real VS Code workbench with the PACKAGED extension: two folders
// opened from a .code-workspace file; a message in the panel mentions a file of the second folder
// by its folder name, and the model lists the workspace and reads from both folders. Screenshots:
// .test-artifacts/e2e/multi-root-*.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RecordedRequest } from '../fixtures/scripted-llm-server';
import { useScriptedWorkbench } from '../helpers/scripted-workbench';

const UI_TIMEOUT = 60_000;
const done = '<attempt_completion>\n<result>The app greets with the shared constant.</result>\n</attempt_completion>';
const allText = (request: RecordedRequest) => JSON.stringify(request.body.messages);

describe('A multi-root workspace in the real VS Code workbench (packaged .vsix)', { timeout: 600_000 }, () => {
  const session = useScriptedWorkbench('multi-root', {
    prepare: ({ workspace }) => {
      workspace.write('app/src/main.ts', 'import { GREETING } from "shared-lib";\nconsole.log(GREETING);\n');
      workspace.write('shared-lib/util.ts', 'export const GREETING = "hello from the second folder";\n');
      workspace.write('project.code-workspace', JSON.stringify({ folders: [{ path: 'app' }, { path: 'shared-lib' }] }));
    },
    open: (workspace) => join(workspace.root, 'project.code-workspace'),
    settings: { 'smith.autoApprove.editFiles': true },
  });

  it('mentions, lists and reads across both folders', async () => {
    const { workbench, llm } = session;
    await workbench.openViewContainer('Smith');
    const panel = workbench.webviewFrame();
    const box = panel.getByRole('textbox', { name: 'Task' });
    await box.waitFor({ timeout: UI_TIMEOUT });
    llm.enqueue(
      { text: '<list_files>\n<path>.</path>\n<recursive>true</recursive>\n</list_files>' },
      { text: '<read_file>\n<path>src/main.ts</path>\n</read_file>' },
      { text: done },
    );
    await box.fill('How does the app use @shared-lib/util.ts?');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.locator('.completion-card').getByText('The app greets with the shared constant.').waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('multi-root-1-answer');

    const first = allText(llm.requestAt(0));
    // The prompt names both folders; the mention attached the second folder's file by its name.
    assert.match(first, /Workspace folders/);
    assert.match(first, /folder \\"shared-lib\\", addressed as shared-lib\/path/);
    assert.match(first, /hello from the second folder/);
    // Listing "." covers both folders; a plain relative path reads from the first.
    assert.match(allText(llm.requestAt(1)), /shared-lib\/util\.ts/);
    assert.match(allText(llm.requestAt(1)), /src\/main\.ts/);
    assert.match(allText(llm.requestAt(2)), /console\.log\(GREETING\)/);
    assert.deepEqual(await panel.locator('.error-card').allTextContents(), []);
  });

  it("checkpoints the second folder: Compare shows its file by the folder's name, and Restore puts it back", async () => {
    const { workbench, llm, workspace: root } = session;
    const panel = workbench.webviewFrame();
    const util = 'shared-lib/util.ts';
    llm.enqueue(
      { text: `<read_file>\n<path>${util}</path>\n</read_file>` },
      { text: `<write_to_file>\n<path>${util}</path>\n<content>\nexport const GREETING = "changed";\n</content>\n</write_to_file>` },
      { text: '<attempt_completion>\n<result>Changed the greeting.</result>\n</attempt_completion>' },
    );
    await panel.getByRole('textbox', { name: /Task|Reply/ }).fill('Change the greeting in the shared library');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.locator('.completion-card').getByText('Changed the greeting.').waitFor({ timeout: UI_TIMEOUT });
    assert.equal(root.read(util), 'export const GREETING = "changed";\n');

    const start = panel.locator('.checkpoint[data-checkpoint="0"]');
    await start.getByRole('button', { name: 'Compare' }).click();
    const { page } = workbench;
    await page.locator('.tabs-container .tab.active').getByText('Checkpoint 0 ↔ now').waitFor({ timeout: UI_TIMEOUT });
    await page.locator('.editor-group-container').getByText('util.ts').first().waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('multi-root-2-compare');

    await start.getByRole('button', { name: 'Restore' }).click();
    await start.getByRole('group', { name: 'Restore checkpoint 0' }).getByRole('button', { name: 'Files only' }).click();
    await panel.locator('.notice').last().getByText('Files went back to checkpoint 0.').waitFor({ timeout: UI_TIMEOUT });
    assert.equal(root.read(util), 'export const GREETING = "hello from the second folder";\n');
    await workbench.screenshot('multi-root-3-restored');
    assert.deepEqual(await panel.locator('.error-card').allTextContents(), []);
  });
});
