import { WorkspaceTrust } from '../mcp/workspace-trust.js';

// A repository's skills reach the model only in a trusted workspace. The answer is the folder's
// (its skills now and later, as VS Code's and Claude Code's folder trust are), kept beside the
// answers for its MCP servers and settings file in <storage>/workspace-trust.json.

/** The fingerprint a folder's skills answer is stored with: the folder, not the files, is trusted. */
const FOLDER_ANSWER = 'skills-folder-v1';

function skillsTrustKey(workspaceRoot: string): string {
  return `${workspaceRoot}#skills`;
}

/** The stored answer for a workspace's skills: trusted, denied, or not asked yet. */
export function workspaceSkillsDecision(storageDir: string, workspaceRoot: string, trustAll = false): 'trusted' | 'denied' | 'unknown' {
  return new WorkspaceTrust({ storageDir, trustAll }).check(skillsTrustKey(workspaceRoot), FOLDER_ANSWER);
}

/** Stores the user's answer for a workspace's skills. */
export function rememberWorkspaceSkills(storageDir: string, workspaceRoot: string, trusted: boolean): void {
  new WorkspaceTrust({ storageDir }).remember(skillsTrustKey(workspaceRoot), FOLDER_ANSWER, trusted);
}
