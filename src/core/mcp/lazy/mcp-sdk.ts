// Loaded when the first MCP server is connected or served (its own bundle, dist/lazy/: see
// scripts/lazy-modules.mjs). One bundle, so the client, the server and their errors share classes.
export { auth, selectClientAuthMethod, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export {
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
export { default as Ajv } from 'ajv';
