/** What a call is about: a command (monospace), a path (its file name never elided), or other text. */
export interface ToolSubject {
  readonly kind: 'command' | 'path' | 'text';
  readonly text: string;
}

/**
 * What a tool call is about, in one line: the command, the search and where, the path, the MCP
 * server and tool, the URL or query. The panel's cards and the CLI's progress lines both use it.
 */
export function toolSubject(tool: string, params: Readonly<Record<string, string>>): ToolSubject | undefined {
  if (params.command !== undefined) return { kind: 'command', text: params.command };
  if (tool === 'search_files' && params.regex !== undefined) {
    return { kind: 'text', text: `/${params.regex}/${params.path !== undefined ? ` in ${params.path}` : ''}` };
  }
  if (params.path !== undefined) return { kind: 'path', text: params.path };
  if (params.server_name !== undefined) {
    const target = params.tool_name ?? params.uri;
    return { kind: 'text', text: target === undefined ? params.server_name : `${params.server_name} › ${target}` };
  }
  const other = params.url ?? params.uri ?? params.query;
  return other === undefined ? undefined : { kind: 'text', text: other };
}
