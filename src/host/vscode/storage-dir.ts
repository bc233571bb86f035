import type * as vscode from 'vscode';

/** Where task logs live: SMITH_STORAGE when set (tests, shared setups), else the extension's global storage. */
export function resolveStorageDir(context: Pick<vscode.ExtensionContext, 'globalStorageUri'>, env: NodeJS.ProcessEnv = process.env): string {
  return env.SMITH_STORAGE?.trim() || context.globalStorageUri.fsPath;
}
