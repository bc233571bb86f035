import type { McpHub } from '../mcp/mcp-hub.js';
import { formatResourceContents } from '../mcp/mcp-result-format.js';
import { mcpCallFailure } from '../mcp/mcp-call-failure.js';
import { builtInSpec, type ToolHandler } from '../tool-kit/tool-spec.js';
import { connectedServer } from './use-mcp-tool.js';

/** access_mcp_resource: reads one resource (a listed URI, or a filled-in template) from a connected server. */
export function createAccessMcpResourceTool(hub: McpHub): ToolHandler {
  return {
    spec: builtInSpec({
      name: 'access_mcp_resource',
      description:
        "Read a resource from a connected MCP server: files, database records, API responses and the like. Use a URI from the server's resources, or fill in the {placeholders} of one of its resource templates.",
      params: [
        { name: 'server_name', required: true, description: 'Name of the MCP server.' },
        { name: 'uri', required: true, description: 'URI of the resource.' },
      ],
      example: '<access_mcp_resource>\n<server_name>weather</server_name>\n<uri>weather://san-francisco/current</uri>\n</access_mcp_resource>',
    }),
    async execute(params, context) {
      const found = connectedServer(hub, params.server_name!.trim());
      if ('kind' in found) return found;
      const uri = params.uri!.trim();
      const answer = await context.approve({ summary: `Read MCP resource ${uri} on server ${found.name}` }, { serverAutoApproved: false });
      if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };
      try {
        const result = await hub.readResource(found.name, uri, { signal: context.signal });
        return { kind: 'result', output: formatResourceContents(result), details: { mcp: { server: found.name, uri, isError: false } } };
      } catch (error) {
        if (context.signal.aborted) throw error;
        return mcpCallFailure(error);
      }
    },
  };
}
