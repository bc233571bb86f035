import * as vscode from 'vscode';

/** The editor's selection as context for the model: where it is from, and the code in a fence. */
export function selectionContext(editor: vscode.TextEditor): string | undefined {
  const { selection, document } = editor;
  if (selection.isEmpty) return undefined;
  const text = document.getText(selection);
  // A selection that ends at the start of a line does not include that line.
  const lastLine = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line - 1 : selection.end.line;
  const path = document.uri.scheme === 'file' ? vscode.workspace.asRelativePath(document.uri, false) : document.uri.toString();
  const lines = lastLine === selection.start.line ? `line ${lastLine + 1}` : `lines ${selection.start.line + 1}-${lastLine + 1}`;
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${path} (${lines}):\n${fence}${document.languageId}\n${text.replace(/\n$/, '')}\n${fence}`;
}
