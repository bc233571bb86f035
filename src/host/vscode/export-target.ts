import * as vscode from 'vscode';

/** Asks where to save an exported task (suggesting the workspace folder) and writes it; a cancelled dialog writes nothing. */
export async function saveWithDialog(suggestedName: string, markdown: string): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, suggestedName) } : {}),
    filters: { Markdown: ['md'] },
    saveLabel: 'Export Task',
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(markdown));
}

/** Opens an exported task in an untitled Markdown editor, for hosts without a save dialog. */
export async function openAsUntitled(_suggestedName: string, markdown: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
  await vscode.window.showTextDocument(document, { preview: false });
}
