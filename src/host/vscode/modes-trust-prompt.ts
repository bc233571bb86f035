import * as vscode from 'vscode';
import type { WorkspaceTrustCheck } from '../../core/mcp/workspace-trust.js';
import { WorkspaceTrust } from '../../core/mcp/workspace-trust.js';
import type { HeldBackModes } from '../../core/modes/mode-loader.js';

const TRUST = 'Trust';
const DONT = "Don't Trust";

const asking = new Set<string>();

/** The window's answer for the workspace's mode files: never in a workspace VS Code does not trust (Restricted Mode), else the stored answer. */
export function windowModeTrust(storageDir: string): WorkspaceTrustCheck {
  return (key, fingerprint) => (vscode.workspace.isTrusted ? new WorkspaceTrust({ storageDir }).check(key, fingerprint) : 'denied');
}

/**
 * The question in the window about a workspace's mode files: a notification naming them. Not
 * modal; a yes or no is remembered until a file changes, and `answered` runs after either.
 */
export async function askModesTrustInWindow(held: HeldBackModes | undefined, storageDir: string, answered: () => void): Promise<void> {
  if (held?.decision !== 'unknown' || asking.has(held.fingerprint) || !vscode.workspace.isTrusted) return;
  asking.add(held.fingerprint);
  try {
    const choice = await vscode.window.showWarningMessage(
      `This workspace defines modes (${held.files.map((file) => vscode.workspace.asRelativePath(file)).join(', ')}): roles and instructions that steer the model, and the tools each may use. Use them? (Smith remembers the answer until a file changes.)`,
      TRUST,
      DONT,
    );
    if (choice === undefined) return;
    new WorkspaceTrust({ storageDir }).remember(held.trustKey, held.fingerprint, choice === TRUST);
    answered();
  } finally {
    asking.delete(held.fingerprint);
  }
}
