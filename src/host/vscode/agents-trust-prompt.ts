import * as vscode from 'vscode';
import type { HeldBackAgents } from '../../core/subagents/agent-files.js';
import { WorkspaceTrust } from '../../core/mcp/workspace-trust.js';

const TRUST = 'Trust';
const DONT = "Don't Trust";

const asking = new Set<string>();

/**
 * The question in the window about a workspace's agent files: a notification naming them. Not
 * modal: the task goes on without them meanwhile; a yes or no is remembered until a file changes.
 */
export async function askAgentsTrustInWindow(held: HeldBackAgents | undefined, storageDir: string): Promise<void> {
  if (held?.decision !== 'unknown' || asking.has(held.fingerprint) || !vscode.workspace.isTrusted) return;
  asking.add(held.fingerprint);
  try {
    const choice = await vscode.window.showWarningMessage(
      `This workspace defines agents the model may delegate to (${held.files.map((file) => vscode.workspace.asRelativePath(file)).join(', ')}). Their prompts steer sub-agents, and their tools may include edits and commands (each still approved). Use them? (Smith remembers the answer until a file changes; they apply from the next task.)`,
      TRUST,
      DONT,
    );
    if (choice !== undefined) new WorkspaceTrust({ storageDir }).remember(held.trustKey, held.fingerprint, choice === TRUST);
  } finally {
    asking.delete(held.fingerprint);
  }
}
