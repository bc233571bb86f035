// The panel edits only Smith's own files. A server defined in one of Claude Code's files is first
// copied, as written there (its `${VAR}` references unexpanded), into the Smith file of the same
// reach: `.mcp.json` into `.smith/mcp.json`, `~/.claude.json` into the global `mcp_settings.json`.
// The copy then wins over the original (a later file), and the edit is made to the copy.
import { parse as parseJsonc } from 'jsonc-parser/lib/esm/main.js';
import { basename } from 'node:path';
import { CLAUDE_WORKSPACE_MCP_FILE, claudeProjectKey, readMcpConfigText, type McpConfigSource } from './mcp-config.js';

/** Where an edit of a server from `file` goes, and the entry to copy there first (none for Smith's own files). */
export interface McpEditTarget {
  readonly file: string;
  readonly copy?: { readonly from: string; readonly entry: Readonly<Record<string, unknown>> };
}

/** True for Claude Code's files, which Smith reads but never writes. */
export function isClaudeCodeFile(source: McpConfigSource): boolean {
  return source.scope === 'claude-user' || (source.scope === 'workspace' && basename(source.path) === CLAUDE_WORKSPACE_MCP_FILE);
}

/** The file an edit of server `name` (defined in `file`) is written to. */
export function mcpEditTarget(sources: readonly McpConfigSource[], name: string, file: string): McpEditTarget {
  const source = sources.find((s) => s.path === file);
  if (!source || !isClaudeCodeFile(source)) return { file };
  const target = sources.find((s) => (source.scope === 'workspace' ? s.scope === 'workspace' && !isClaudeCodeFile(s) : s.scope === 'global'));
  if (!target) throw new Error(`"${name}" comes from ${file}, which Smith does not edit, and there is no Smith settings file to copy it to.`);
  const entry = rawEntry(source, name);
  if (!entry) throw new Error(`${file} no longer defines a server "${name}".`);
  return { file: target.path, copy: { from: file, entry } };
}

/** The entry as written in a Claude Code file (a project's entry before the user-wide one). */
function rawEntry(source: McpConfigSource, name: string): Record<string, unknown> | undefined {
  const { text } = readMcpConfigText(source);
  if (text === undefined) return undefined;
  const data: unknown = parseJsonc(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!isObject(data)) return undefined;
  const sections: unknown[] = [];
  if (source.scope === 'claude-user' && source.project !== undefined) {
    const key = claudeProjectKey(data.projects, source.project);
    if (key !== undefined) sections.push((data.projects as Record<string, Record<string, unknown>>)[key]!.mcpServers);
  }
  sections.push(data.mcpServers);
  for (const servers of sections) if (isObject(servers) && isObject(servers[name])) return servers[name];
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
