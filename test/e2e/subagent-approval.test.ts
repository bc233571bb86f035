// An editing sub-agent in the real VS Code workbench with the PACKAGED extension: the task hands a
// file to a custom agent (from Smith's storage), whose edit waits in the panel's approval bar
// naming the sub-agent, with the proposal in the diff editor; approved there, it is written.
// Screenshots: .test-artifacts/e2e/subagent-approval-*.png.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useScriptedWorkbench } from '../helpers/scripted-workbench';

const UI_TIMEOUT = 60_000;
const FIXER = '---\nname: fixer\ndescription: Writes the file it is given.\ntools: Read, Write\n---\nYou write files.\n';
const CONTENT = 'Buy milk.';

describe('An editing sub-agent in the real VS Code workbench (packaged .vsix)', { timeout: 600_000 }, () => {
  const session = useScriptedWorkbench('subagent', {
    prepare: ({ storage }) => void storage.write('agents/fixer.md', FIXER),
    settings: { 'smith.autoApprove.editFiles': false },
  });

  it("asks for the sub-agent's edit in the approval bar, naming it, and writes it when approved", async () => {
    const { workbench, llm, workspace } = session;
    await workbench.openViewContainer('Smith');
    const panel = workbench.webviewFrame();
    const box = panel.getByRole('textbox', { name: 'Task' });
    await box.waitFor({ timeout: UI_TIMEOUT });
    // The task, then its sub-agent, then the task again: one conversation after the other.
    llm.enqueue(
      {
        text: `<use_subagents>\n<prompts>${JSON.stringify([{ prompt: 'Write the shopping list to todo.md', agent: 'fixer', paths: ['todo.md'] }])}</prompts>\n</use_subagents>`,
      },
      { text: `<write_to_file>\n<path>todo.md</path>\n<content>\n${CONTENT}\n</content>\n</write_to_file>` },
      { text: '<attempt_completion>\n<result>todo.md holds the list.</result>\n</attempt_completion>' },
      { text: '<attempt_completion>\n<result>The fixer wrote the list.</result>\n</attempt_completion>' },
    );
    await box.fill('Have the fixer write the shopping list');
    await panel.getByRole('button', { name: 'Send' }).click();

    const approval = panel.getByRole('region', { name: 'Approval needed' });
    await approval.waitFor({ timeout: UI_TIMEOUT });
    await approval.getByRole('note').filter({ hasText: 'Sub-agent 1 · fixer asks' }).waitFor({ timeout: UI_TIMEOUT });
    await approval.locator('.approval-path').filter({ hasText: 'todo.md' }).waitFor({ timeout: UI_TIMEOUT });
    const diffEditor = workbench.page.locator('.editor-group-container .monaco-diff-editor').first();
    await diffEditor.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.equal(existsSync(join(workspace.root, 'todo.md')), false, 'the file was written before approval');
    await workbench.screenshot('subagent-approval-1-asked');

    await approval.getByRole('button', { name: 'Approve', exact: true }).click();
    await panel.locator('.completion-card').getByText('The fixer wrote the list.').waitFor({ timeout: UI_TIMEOUT });
    assert.equal(workspace.read('todo.md'), `${CONTENT}\n`);
    await workbench.screenshot('subagent-approval-2-done');
    assert.deepEqual(await panel.locator('.error-card').allTextContents(), []);
  });
});
