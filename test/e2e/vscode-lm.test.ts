// VS Code's own language models in the real workbench with the PACKAGED extension: an extension
// that offers scripted models through vscode.lm is installed beside Smith, no API key is set
// anywhere, and a newcomer picks "VS Code language models" in the panel's setup, browses the
// models VS Code lists, and the task typed before the setup runs with the chosen one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageLmTestExtension } from '../helpers/lm-test-extension';
import { createTempWorkspace, type TempWorkspace } from '../helpers/temp-workspace';
import { openWorkbench, type Workbench } from '../helpers/workbench';

const UI_TIMEOUT = 60_000;
// The scripted model writes lm/hello.txt when the task says TASK_WRITE, then reports.
const TASK = 'TASK_WRITE: put a greeting in lm/hello.txt';

describe('VS Code language models in the panel (packaged .vsix)', { timeout: 600_000 }, () => {
  let workspace: TempWorkspace;
  let storage: TempWorkspace;
  let workbench: Workbench;

  before(async () => {
    workspace = createTempWorkspace('smith-e2e-lm-');
    workspace.write('README.md', '# Greetings\n');
    storage = createTempWorkspace('smith-e2e-lm-storage-');
    workbench = await openWorkbench({
      workspace: workspace.root,
      otherVsix: [packageLmTestExtension()],
      env: { SMITH_API_KEY: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', GEMINI_API_KEY: '', SMITH_STORAGE: storage.root },
      settings: { 'smith.autoApprove.editFiles': true },
    });
  });

  after(async () => {
    await workbench?.close();
    workspace?.dispose();
    storage?.dispose();
  });

  it('is picked from the provider list, its models are browsed, and the waiting task runs with no key', async () => {
    await workbench.openViewContainer('Smith');
    const panel = workbench.webviewFrame();
    await panel.getByRole('textbox', { name: 'Task' }).fill(TASK);
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByRole('heading', { name: 'Settings' }).waitFor({ timeout: UI_TIMEOUT });

    const provider = panel.getByLabel('Provider');
    assert.match((await provider.locator('option[value="vscode-lm"]').textContent()) ?? '', /VS Code language models/);
    await provider.selectOption('vscode-lm');
    // No key and no address: the setup asks for neither.
    assert.equal(
      await panel
        .getByRole('status')
        .or(panel.getByRole('alert'))
        .getByText(/needs .*(API key|address)/)
        .count(),
      0,
    );

    await panel.getByRole('button', { name: 'Browse: default' }).click();
    const list = panel.getByRole('listbox', { name: 'Choices: default' });
    const echo = list.getByRole('option', { name: /smith-echo/ });
    await echo.waitFor({ timeout: UI_TIMEOUT });
    // What VS Code says of the model: its name and vendor, its window, what it takes.
    assert.match((await echo.textContent()) ?? '', /Smith Echo/);
    assert.match((await echo.textContent()) ?? '', /32k/);
    assert.ok((await list.getByRole('option', { name: /smith-plain/ }).count()) === 1);
    await workbench.screenshot('vscode-lm-1-models');
    await echo.click();
    assert.equal(await panel.getByLabel('Default model', { exact: true }).inputValue(), 'smith-echo');
    await panel.getByRole('button', { name: 'Save' }).click();

    // The task that waited starts by itself and the model's work arrives.
    await panel.locator('.completion-card').getByText('Wrote lm/hello.txt with the smith-test model.').waitFor({ timeout: UI_TIMEOUT });
    assert.equal(readFileSync(join(workspace.root, 'lm/hello.txt'), 'utf8'), 'Hello from a VS Code language model\n');
    assert.deepEqual([...(await panel.locator('.problem-banner').allTextContents()), ...(await panel.locator('.error-card').allTextContents())], []);
    // The model's extension bills it, so it costs nothing here; its window is the one VS Code told.
    assert.match((await panel.getByRole('group', { name: 'Usage' }).textContent()) ?? '', /\$0\.0000/);
    assert.match((await panel.locator('.chat-header').textContent()) ?? '', /\/ 32k/);
    await workbench.screenshot('vscode-lm-2-answer');
  });
});
