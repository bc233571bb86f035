import { WorkspaceTrust } from '../mcp/workspace-trust.js';

// A repository's skills reach the model only once the user trusts them, for exactly the files as
// they are (an added, removed or changed SKILL.md asks again), as for its MCP servers, settings
// file and agents; the answers are kept together in <storage>/workspace-trust.json.

function skillsTrustKey(workspaceRoot: string): string {
  return `${workspaceRoot}#skills`;
}

/** The stored answer for these skill files of a workspace: trusted, denied, or not asked yet. */
export function workspaceSkillsDecision(storageDir: string, workspaceRoot: string, fingerprint: string, trustAll = false): 'trusted' | 'denied' | 'unknown' {
  return new WorkspaceTrust({ storageDir, trustAll }).check(skillsTrustKey(workspaceRoot), fingerprint);
}

/** Stores the user's answer for these skill files of a workspace. */
export function rememberWorkspaceSkills(storageDir: string, workspaceRoot: string, fingerprint: string, trusted: boolean): void {
  new WorkspaceTrust({ storageDir }).remember(skillsTrustKey(workspaceRoot), fingerprint, trusted);
}
