import * as vscode from 'vscode';
import type { AttentionNotice } from '../../panel/attention.js';

const OPEN = 'Open Smith';

/** Shows an attention notice as a VS Code notification whose button brings the Smith panel back. */
export function showAttentionNotice(notice: AttentionNotice): void {
  const show = notice.kind === 'failed' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void Promise.resolve(show(notice.message, OPEN)).then((choice) => {
    if (choice === OPEN) void vscode.commands.executeCommand('smith.focusPanel');
  });
}
