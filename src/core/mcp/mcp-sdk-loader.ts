import type * as McpSdk from './lazy/mcp-sdk.js';

/**
 * The MCP SDK (and Ajv), loaded on first use: a separate bundle (see scripts/lazy-modules.mjs),
 * so activation and the CLI's start do not compile it when no MCP server is configured.
 */
export function mcpSdk(): typeof McpSdk {
  return require('./lazy/mcp-sdk.js');
}
