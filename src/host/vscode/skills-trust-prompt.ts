import * as vscode from 'vscode';
import type { WorkspaceSkills } from '../../core/skills/skill-catalog.js';
import { rememberWorkspaceSkills, workspaceSkillsDecision } from '../../core/skills/skill-trust.js';

const TRUST = 'Trust';
const DONT = "Don't Trust";

const asking = new Set<string>();

/**
 * The question in the window about a workspace's skills: a notification naming them. Not modal:
 * the task goes on without them meanwhile; a yes or no is remembered until a SKILL.md changes. A
 * workspace VS Code does not trust (Restricted Mode) is not asked: its skills are never offered.
 */
export async function askSkillsTrustInWindow(workspace: WorkspaceSkills | undefined, storageDir: string, cwd: string): Promise<void> {
  if (!workspace || workspace.trusted || !vscode.workspace.isTrusted || asking.has(workspace.fingerprint)) return;
  if (workspaceSkillsDecision(storageDir, cwd, workspace.fingerprint) !== 'unknown') return;
  asking.add(workspace.fingerprint);
  try {
    const choice = await vscode.window.showWarningMessage(
      `This workspace has skills the model may load (${workspace.skills.join(', ')}). Their instructions steer the model and their scripts are meant to be run (each still approved). Offer them? (Smith remembers the answer until a SKILL.md changes; they apply from the next request.)`,
      TRUST,
      DONT,
    );
    if (choice !== undefined) rememberWorkspaceSkills(storageDir, cwd, workspace.fingerprint, choice === TRUST);
  } finally {
    asking.delete(workspace.fingerprint);
  }
}
