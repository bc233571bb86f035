import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { McpHub } from '../../core/mcp/mcp-hub.js';
import { EMPTY_MCP_CONFIG_TEXT } from '../../core/mcp/mcp-config-edits.js';

/** The scheme of the read-only documents showing a server's log. */
export const MCP_LOG_SCHEME = 'smith-mcp-log';

/**
 * Opens an MCP config file in an editor, creating it with `{"mcpServers": {}}` when missing.
 * Returns whether it had to be created (the caller re-reads the config then).
 */
export async function openMcpConfigFile(path: string): Promise<boolean> {
  const created = !existsSync(path);
  if (created) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, EMPTY_MCP_CONFIG_TEXT, { encoding: 'utf8', flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
  let document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  // The files allow comments and trailing commas; plain JSON mode would flag them as errors.
  if (document.languageId === 'json') document = await vscode.languages.setTextDocumentLanguage(document, 'jsonc');
  await vscode.window.showTextDocument(document, { preview: false });
  return created;
}

/**
 * A server's recent stderr and log messages as a read-only document (no save prompt on close),
 * refreshed while open when the server's status changes or it sends a log message.
 */
export class McpLogDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly hub: McpHub) {
    const offLog = hub.onServerLog((entry) => this.refresh(entry.server));
    const offChange = hub.onChange(() => this.refresh());
    this.subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(MCP_LOG_SCHEME, this),
      new vscode.Disposable(() => {
        offLog();
        offChange();
      }),
    ];
  }

  /** The document URI of a server's log. */
  static uriOf(server: string): vscode.Uri {
    // The path names the tab; the query carries the exact name (it may contain slashes).
    return vscode.Uri.from({ scheme: MCP_LOG_SCHEME, path: `/${server.replace(/[\\/]/g, '_')}.log`, query: new URLSearchParams({ server }).toString() });
  }

  /** Opens (or refreshes and reveals) the server's log, scrolled to the newest line. */
  async show(server: string): Promise<void> {
    if (!this.hub.server(server)) throw new Error(`There is no MCP server named "${server}".`);
    const uri = McpLogDocuments.uriOf(server);
    this.changed.fire(uri);
    let document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== 'log') document = await vscode.languages.setTextDocumentLanguage(document, 'log');
    const editor = await vscode.window.showTextDocument(document, { preview: true });
    const end = new vscode.Position(document.lineCount - 1, 0);
    editor.selection = new vscode.Selection(end, end);
    editor.revealRange(new vscode.Range(end, end));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const name = new URLSearchParams(uri.query).get('server') ?? '';
    const server = this.hub.server(name);
    if (!server) return `There is no MCP server named "${name}" any more.\n`;
    const lines = this.hub.serverLog(name);
    const status = server.reconnect ? `reconnecting (attempt ${server.reconnect.attempt} of ${server.reconnect.maxAttempts})` : server.status;
    // The error's first line only: the rest repeats the server's last output, which follows anyway.
    const error = server.error && server.status !== 'connected' ? [`Error: ${server.error.split('\n')[0]}`] : [];
    const header = [`MCP server "${name}": ${status}`, ...error, `Defined in ${server.source}`, ''];
    return [...header, ...(lines.length > 0 ? lines : ['(no output yet)']), ''].join('\n');
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }

  private refresh(server?: string): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme !== MCP_LOG_SCHEME) continue;
      if (server === undefined || new URLSearchParams(document.uri.query).get('server') === server) this.changed.fire(document.uri);
    }
  }
}
