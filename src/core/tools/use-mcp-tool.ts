import { validateToolArguments } from '../mcp/mcp-argument-validation.js';
import type { McpHub } from '../mcp/mcp-hub.js';
import { unavailableMessage, type McpServerSnapshot } from '../mcp/mcp-server-snapshot.js';
import { schemaJson } from '../mcp/mcp-prompt.js';
import { formatToolResult, progressLine } from '../mcp/mcp-result-format.js';
import { mcpCallFailure } from '../mcp/mcp-call-failure.js';
import { builtInSpec, mistake, type ToolHandler, type ToolOutcome } from '../tool-kit/tool-spec.js';

/** Tool names listed in a "no such tool" message before the rest is summarised. */
const TOOL_NAMES_LISTED = 30;

/** use_mcp_tool: validates the arguments against the tool's schema, asks, calls, and maps the result for the model. */
export function createUseMcpTool(hub: McpHub): ToolHandler {
  return {
    spec: builtInSpec({
      name: 'use_mcp_tool',
      description:
        "Call a tool of a connected MCP server. The MCP servers section lists the servers and their tools with input schemas (when it lists servers only, find the tool with search_mcp_tools and read its schema with get_mcp_tool_details first). The arguments are checked against the tool's input schema before the call.",
      params: [
        { name: 'server_name', required: true, description: 'Name of the MCP server.' },
        { name: 'tool_name', required: true, description: 'Name of the tool on that server.' },
        {
          name: 'arguments',
          required: false,
          description: "The tool's arguments as a JSON object matching its input schema; omit it (or give {}) for a tool without parameters.",
        },
      ],
      example:
        '<use_mcp_tool>\n<server_name>weather</server_name>\n<tool_name>get_forecast</tool_name>\n<arguments>\n{\n  "city": "San Francisco",\n  "days": 5\n}\n</arguments>\n</use_mcp_tool>',
    }),
    async execute(params, context) {
      const found = connectedServer(hub, params.server_name!.trim());
      if ('kind' in found) return found;
      const server = found;
      const toolName = params.tool_name!.trim();
      const tool = server.tools.find((t) => t.name === toolName);
      if (!tool) return mistake(noSuchTool(server, toolName));
      const args = parseArguments(params.arguments);
      if (typeof args === 'string') return mistake(args);
      const invalid = validateToolArguments(tool.inputSchema, args);
      if (invalid) {
        return mistake(
          `The arguments for ${toolName} on MCP server "${server.name}" do not match its input schema, so the tool was not called:\n${invalid}\nInput schema: ${schemaJson(tool)}`,
        );
      }
      const answer = await context.approve(
        { summary: `Use MCP tool ${toolName} on server ${server.name}` },
        { serverAutoApproved: hub.isAutoApproved(server.name, toolName) },
      );
      if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };
      let result: Awaited<ReturnType<McpHub['callTool']>>;
      try {
        result = await hub.callTool(server.name, toolName, args, { signal: context.signal, onProgress: (p) => context.progress(progressLine(p)) });
      } catch (error) {
        if (context.signal.aborted) throw error;
        return mcpCallFailure(error);
      }
      // The text always describes the images: it is all a model without vision (or a later text-only summary) gets.
      const formatted = formatToolResult(result);
      if (formatted.isError) {
        return {
          kind: 'error',
          error: `The MCP tool ${toolName} on server "${server.name}" reported an error:\n${formatted.text}`,
          mistake: false,
          details: { mcp: { server: server.name, tool: toolName, isError: true } },
        };
      }
      const images = context.modelSupportsImages && formatted.images.length > 0 ? { images: formatted.images } : {};
      const facts = {
        server: server.name,
        tool: toolName,
        isError: false,
        ...(formatted.structured !== undefined ? { structured: formatted.structured } : {}),
        ...(formatted.links.length > 0 ? { links: [...formatted.links] } : {}),
      };
      return { kind: 'result', output: formatted.text, ...images, details: { mcp: facts } };
    },
  };
}

/** The connected server of that name, or the outcome explaining why it cannot be used. */
export function connectedServer(hub: McpHub, name: string): McpServerSnapshot | ToolOutcome {
  const server = hub.server(name);
  if (!server) {
    const names = hub.servers().map((s) => s.name);
    return mistake(`There is no MCP server named "${name}". ${names.length > 0 ? `Servers: ${names.join(', ')}.` : 'No MCP servers are configured.'}`);
  }
  if (server.status !== 'connected') return { kind: 'error', error: unavailableMessage(server), mistake: false };
  return server;
}

/** Parses the model's JSON arguments; returns the object or a message saying what is wrong. */
export function parseArguments(text: string | undefined): Record<string, unknown> | string {
  // Models sometimes fence the JSON like code.
  const trimmed = (text ?? '')
    .trim()
    .replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/, '$1')
    .trim();
  if (trimmed === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return `The arguments of use_mcp_tool are not valid JSON (${(error as Error).message}). Give a JSON object such as {"city": "Paris"}, with double-quoted keys and strings and no trailing commas.`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `The arguments of use_mcp_tool must be a JSON object (like {"city": "Paris"}), not ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}.`;
  }
  return value as Record<string, unknown>;
}

function noSuchTool(server: McpServerSnapshot, toolName: string): string {
  const names = server.tools.map((t) => t.name);
  const listed = names.slice(0, TOOL_NAMES_LISTED).join(', ');
  const more = names.length > TOOL_NAMES_LISTED ? `, and ${names.length - TOOL_NAMES_LISTED} more (find them with search_mcp_tools)` : '';
  return `MCP server "${server.name}" has no tool named "${toolName}". ${names.length > 0 ? `Its tools: ${listed}${more}.` : 'It offers no tools.'}`;
}
