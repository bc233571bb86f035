import type { McpHub } from '../mcp/mcp-hub.js';
import type { McpServerSnapshot } from '../mcp/mcp-server-snapshot.js';
import { serverAbout, serverLine } from '../mcp/mcp-prompt.js';
import { searchMcpTools, type McpCatalogueTool } from '../mcp/mcp-tool-search.js';
import { builtInSpec, mistake, type ToolHandler } from '../tool-kit/tool-spec.js';
import { connectedServer } from './use-mcp-tool.js';

/** Results search_mcp_tools returns unless asked for a different number. */
const DEFAULT_RESULTS = 10;
const MAX_RESULTS = 30;
const DESCRIPTION_CHARS = 200;

/** The facts of a call about all servers at once. */
const NO_SERVER = { mcp: { isError: false } } as const;

/** The discovery meta-tools for large catalogues: list servers, search tools, read one tool's schema. */
export function createMcpDiscoveryTools(hub: McpHub): ToolHandler[] {
  return [listMcpServersTool(hub), searchMcpToolsTool(hub), getMcpToolDetailsTool(hub)];
}

function listMcpServersTool(hub: McpHub): ToolHandler {
  return {
    spec: builtInSpec({
      name: 'list_mcp_servers',
      description:
        "List the configured MCP servers with their status and tool counts. With server_name, list that server's tools (names and short descriptions), resource templates and resources.",
      params: [{ name: 'server_name', required: false, description: 'A server to show in detail.' }],
      example: '<list_mcp_servers>\n<server_name>github</server_name>\n</list_mcp_servers>',
    }),
    async execute(params) {
      const name = params.server_name?.trim();
      if (!name) {
        const servers = hub.servers();
        if (servers.length === 0) return { kind: 'result', output: 'No MCP servers are configured.', details: NO_SERVER };
        const lines = servers.map((s) =>
          s.status === 'connected' ? serverLine(s) : `- ${s.name} (${s.status}${s.error ? `: ${s.error.split('\n')[0]}` : ''})`,
        );
        return { kind: 'result', output: `MCP servers:\n${lines.join('\n')}`, details: NO_SERVER };
      }
      const found = connectedServer(hub, name);
      if ('kind' in found) return found;
      return { kind: 'result', output: serverDetails(found), details: { mcp: { server: found.name, isError: false } } };
    },
  };
}

function searchMcpToolsTool(hub: McpHub): ToolHandler {
  return {
    spec: builtInSpec({
      name: 'search_mcp_tools',
      description:
        "Search the tools of the connected MCP servers by what they do. Matches the words of the query against tool names (strongest) and descriptions, and returns the best matches with their descriptions. Then read the chosen tool's input schema with get_mcp_tool_details.",
      params: [
        { name: 'query', required: true, description: 'Words describing what the tool should do, e.g. "create github issue".' },
        { name: 'server_name', required: false, description: 'Search only this server.' },
        { name: 'max_results', required: false, description: `How many matches to return (default ${DEFAULT_RESULTS}, at most ${MAX_RESULTS}).` },
      ],
      example: '<search_mcp_tools>\n<query>create issue</query>\n<server_name>github</server_name>\n</search_mcp_tools>',
    }),
    async execute(params) {
      const serverName = params.server_name?.trim();
      let servers = hub.servers().filter((s) => s.status === 'connected');
      if (serverName) {
        const found = connectedServer(hub, serverName);
        if ('kind' in found) return found;
        servers = [found];
      }
      const max = params.max_results?.trim() ? Number(params.max_results.trim()) : DEFAULT_RESULTS;
      if (!Number.isInteger(max) || max < 1) return mistake(`max_results must be a positive whole number, got "${params.max_results}".`);
      const catalogue = catalogueOf(servers);
      const matches = searchMcpTools(catalogue, params.query!, Math.min(max, MAX_RESULTS));
      const details = {
        search: { query: params.query!, files: new Set(matches.map((m) => m.server)).size, matches: matches.length, truncated: false },
        mcp: { ...(serverName ? { server: serverName } : {}), isError: false },
      };
      if (matches.length === 0) {
        return {
          kind: 'result',
          output: `No MCP tool matches "${params.query}" (searched ${catalogue.length} tools). Try other words, or list_mcp_servers with a server_name to see its tools.`,
          details,
        };
      }
      const lines = matches.map((m, i) => `${i + 1}. server_name=${m.server} tool_name=${m.tool.name}: ${shorten(m.tool.description)}`);
      return {
        kind: 'result',
        output: `Best matches for "${params.query}" among ${catalogue.length} tools:\n${lines.join('\n')}\n\nRead a tool's input schema with get_mcp_tool_details before calling it with use_mcp_tool.`,
        details,
      };
    },
  };
}

function getMcpToolDetailsTool(hub: McpHub): ToolHandler {
  return {
    spec: builtInSpec({
      name: 'get_mcp_tool_details',
      description: "Show one MCP tool's full description and input schema, so you can call it with use_mcp_tool.",
      params: [
        { name: 'server_name', required: true, description: 'Name of the MCP server.' },
        { name: 'tool_name', required: true, description: 'Name of the tool on that server.' },
      ],
      example: '<get_mcp_tool_details>\n<server_name>github</server_name>\n<tool_name>create_issue</tool_name>\n</get_mcp_tool_details>',
    }),
    async execute(params) {
      const found = connectedServer(hub, params.server_name!.trim());
      if ('kind' in found) return found;
      const toolName = params.tool_name!.trim();
      const tool = found.tools.find((t) => t.name === toolName);
      if (!tool) {
        const similar = searchMcpTools(catalogueOf([found]), toolName, 3).map((m) => m.tool.name);
        return mistake(
          `MCP server "${found.name}" has no tool named "${toolName}".${similar.length > 0 ? ` Similar tools: ${similar.join(', ')}.` : ''} Use search_mcp_tools to find tools.`,
        );
      }
      const { $schema: _ignored, ...schema } = tool.inputSchema as Record<string, unknown>;
      return {
        kind: 'result',
        output: [
          `Tool ${tool.name} on MCP server "${found.name}"${tool.title ? ` (${tool.title})` : ''}`,
          `Description: ${tool.description || '(none)'}`,
          `Input schema:\n${JSON.stringify(schema, null, 2)}`,
          `Call it with use_mcp_tool: server_name ${found.name}, tool_name ${tool.name}, and arguments as a JSON object matching the schema.`,
        ].join('\n'),
        details: { mcp: { server: found.name, tool: tool.name, isError: false } },
      };
    },
  };
}

function catalogueOf(servers: readonly McpServerSnapshot[]): McpCatalogueTool[] {
  return servers.flatMap((s) => s.tools.map((tool) => ({ server: s.name, tool })));
}

function serverDetails(server: McpServerSnapshot): string {
  const about = serverAbout(server);
  const lines = [`MCP server "${server.name}" (connected)${about ? `: ${about}` : ''}`];
  lines.push('', `Tools (${server.tools.length}):`, ...server.tools.map((t) => `- ${t.name}: ${shorten(t.description)}`));
  if (server.resourceTemplates.length > 0) {
    lines.push(
      '',
      'Resource templates:',
      ...server.resourceTemplates.map((t) => `- ${t.uriTemplate} (${t.name})${t.description ? `: ${shorten(t.description)}` : ''}`),
    );
  }
  if (server.resources.length > 0) {
    lines.push('', 'Resources:', ...server.resources.map((r) => `- ${r.uri} (${r.name})${r.description ? `: ${shorten(r.description)}` : ''}`));
  }
  return lines.join('\n');
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim() || '(no description)';
  return line.length > DESCRIPTION_CHARS ? `${line.slice(0, DESCRIPTION_CHARS - 3)}...` : line;
}
