import { isAbsolute, relative } from 'node:path';
import * as vscode from 'vscode';

// Enough to orient the model; a workspace with hundreds of tabs must not flood every request.
const MAX_FILES = 20;

/** Environment-detail sections about the editor: the visible files and the open tabs. */
export function editorEnvironment(cwd: string): string[] {
  const visible = unique(vscode.window.visibleTextEditors.map((e) => e.document.uri));
  const tabs = unique(
    vscode.window.tabGroups.all.flatMap((group) => group.tabs).flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [tab.input.uri] : [])),
  );
  return [section('VSCode Visible Files', visible, cwd), section('VSCode Open Tabs', tabs, cwd)].filter((s) => s !== '');
}

function unique(uris: readonly vscode.Uri[]): vscode.Uri[] {
  const seen = new Set<string>();
  return uris.filter((uri) => uri.scheme === 'file' && !seen.has(uri.fsPath) && seen.add(uri.fsPath));
}

function section(title: string, uris: readonly vscode.Uri[], cwd: string): string {
  if (uris.length === 0) return '';
  const paths = uris.slice(0, MAX_FILES).map((uri) => {
    const rel = relative(cwd, uri.fsPath);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : uri.fsPath;
  });
  const more = uris.length > MAX_FILES ? `\n(${uris.length - MAX_FILES} more)` : '';
  return `# ${title}\n${paths.join('\n')}${more}`;
}
