import * as vscode from 'vscode';
import type { AttentionNotice } from '../../panel/attention.js';

const OPEN = 'Open Smith';

/**
 * Shows an attention notice as a VS Code notification whose button brings the Smith panel back,
 * showing the task the notice is about (`showTask`) when it names one.
 */
export function showAttentionNotice(notice: AttentionNotice, showTask: (taskId: string) => Promise<void>): void {
  const show = notice.kind === 'failed' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void Promise.resolve(show(notice.message, OPEN)).then(async (choice) => {
    if (choice !== OPEN) return;
    if (notice.taskId !== undefined) await showTask(notice.taskId).catch(() => undefined);
    await vscode.commands.executeCommand('smith.focusPanel');
  });
}
