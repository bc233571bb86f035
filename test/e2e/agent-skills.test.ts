// An Agent Skill from the workspace's .claude/skills in the real VS Code workbench with the PACKAGED
// extension: /skills in the Task box opens the Settings view, which lists the skill with its folder
// and an enabled toggle; a task then sees the skill in the prompt, loads it with use_skill, and
// follows its instructions. Screenshots: .test-artifacts/e2e/agent-skills-*.png.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useScriptedWorkbench } from '../helpers/scripted-workbench';
import { loadSkillCatalog } from '../../src/core/skills/skill-catalog';
import { rememberWorkspaceSkills } from '../../src/core/skills/skill-trust';

const UI_TIMEOUT = 60_000;
const SKILL = `---
name: release-notes
description: Write the release notes. Use when the user asks for release notes.
allowed-tools: Read Write(NOTES.md)
---
Write NOTES.md whose only line is "Release notes, house style 7".
`;
const NOTES = 'Release notes, house style 7';

describe('An Agent Skill in the real VS Code workbench (packaged .vsix)', { timeout: 600_000 }, () => {
  const session = useScriptedWorkbench('skills', {
    prepare: ({ workspace, storage }) => {
      workspace.write('.claude/skills/release-notes/SKILL.md', SKILL);
      workspace.write('.claude/skills/release-notes/scripts/collect.sh', 'git log --oneline\n');
      // The user trusted these skill files before (the window asks otherwise, in a notification).
      const { workspace: skills } = loadSkillCatalog({
        workspaceRoots: [workspace.root],
        storageDir: storage.root,
        homeDir: storage.root,
        workspaceTrusted: () => false,
      });
      rememberWorkspaceSkills(storage.root, workspace.root, skills!.fingerprint, true);
    },
    settings: { 'smith.autoApprove.editFiles': true },
  });

  it('lists the .claude/skills skill in the panel, and a task loads and follows it', async () => {
    const { workbench, llm, workspace } = session;
    await workbench.openViewContainer('Smith');
    const panel = workbench.webviewFrame();
    const box = panel.getByRole('textbox', { name: 'Task' });
    await box.waitFor({ timeout: UI_TIMEOUT });

    await box.fill('/skills');
    await panel.getByRole('button', { name: 'Send' }).click();
    const skills = panel.getByRole('list', { name: 'Skills' });
    await skills.waitFor({ timeout: UI_TIMEOUT });
    const toggle = skills.getByRole('checkbox', { name: 'release-notes (.claude/skills)' });
    await toggle.waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await toggle.isChecked(), true, 'the skill is on');
    await skills.getByText('Write the release notes. Use when the user asks for release notes.').first().waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('agent-skills-1-listed');

    await panel.getByRole('button', { name: 'Back to chat' }).click();
    llm.enqueue(
      { text: '<use_skill>\n<skill_name>release-notes</skill_name>\n</use_skill>' },
      { text: `<write_to_file>\n<path>NOTES.md</path>\n<content>\n${NOTES}\n</content>\n</write_to_file>` },
      { text: '<attempt_completion>\n<result>NOTES.md is written in the house style.</result>\n</attempt_completion>' },
    );
    await box.waitFor({ timeout: UI_TIMEOUT });
    await box.fill('Write the release notes');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.locator('.completion-card').getByText('NOTES.md is written in the house style.').waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('agent-skills-2-followed');

    const system = JSON.stringify((llm.requestAt(0).body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'system')?.content);
    assert.match(system, /- release-notes: Write the release notes\. Use when the user asks for release notes\./);
    assert.doesNotMatch(system, /house style 7/, 'the instructions came only with use_skill');
    const loaded = JSON.stringify((llm.requestAt(1).body.messages as unknown[]).at(-1));
    assert.match(loaded, /house style 7/);
    assert.match(loaded, /scripts\/collect\.sh/);
    assert.equal(workspace.read('NOTES.md'), `${NOTES}\n`);
    assert.deepEqual(await panel.locator('.error-card').allTextContents(), []);
  });
});
