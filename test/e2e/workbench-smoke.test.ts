// Smoke test of the end-to-end harness: the packaged Smith (.vsix) installs into code-server and
// the real workbench loads around it. Needs `node scripts/workbench/ensure-workbench.mjs`,
// a build and `node scripts/workbench/package-vsix.mjs` first (the test:e2e script does all three).
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTempWorkspace, type TempWorkspace } from '../helpers/temp-workspace';
import { openWorkbench, type Workbench } from '../helpers/workbench';

describe('Smith packaged in the real VS Code workbench', { timeout: 120_000 }, () => {
  let workspace: TempWorkspace;
  let workbench: Workbench;

  before(async () => {
    workspace = createTempWorkspace('smith-e2e-');
    workspace.write('hello.ts', 'export const greeting = "hello";\n');
    workbench = await openWorkbench({ workspace: workspace.root });
  });

  after(async () => {
    await workbench?.close();
    workspace?.dispose();
  });

  it('lists smith.smith among the installed extensions', async () => {
    assert.ok((await workbench.server.listExtensions()).includes('smith.smith'));
  });

  it('opens the workspace in the workbench', async () => {
    const { page } = workbench;
    await workbench.openViewContainer('Explorer');
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'hello.ts' }).waitFor({ timeout: 30_000 });
    const folderName = basename(workspace.root);
    assert.ok((await page.title()).includes(folderName), `the window title names ${folderName}`);
  });

  it('shows Smith as installed in the Extensions view', async () => {
    const { page } = workbench;
    await workbench.openViewContainer('Extensions');
    const installed = page.locator('.extensions-list .monaco-list-row', { hasText: 'Smith' });
    await installed.first().waitFor({ timeout: 30_000 });
    await workbench.screenshot('workbench-smoke');
  });
});
