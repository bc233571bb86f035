import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { McpRoot } from './mcp-connection.js';

/** The workspace folders as MCP roots: the primary folder first, each as a file:// URI with its name. */
export function mcpRootsOf(folders: readonly { readonly path: string; readonly name?: string }[]): McpRoot[] {
  const seen = new Set<string>();
  const roots: McpRoot[] = [];
  for (const folder of folders) {
    const uri = pathToFileURL(folder.path).href;
    if (seen.has(uri)) continue;
    seen.add(uri);
    roots.push({ uri, name: folder.name ?? (basename(folder.path) || folder.path) });
  }
  return roots;
}
