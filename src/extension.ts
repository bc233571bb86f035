import type * as vscode from 'vscode';

/** Activates Smith in VS Code. The panel is composed in src/host/vscode. */
export function activate(_context: vscode.ExtensionContext): void {}

/** Nothing to release yet: every disposable is registered on the context. */
export function deactivate(): void {}
