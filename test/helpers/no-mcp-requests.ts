import type { McpRequests } from '../../src/panel/message-handlers.js';

/** The MCP view's requests for a panel built without MCP servers: each one does nothing. */
export const NO_MCP_REQUESTS: McpRequests = {
  restart: async () => {},
  setDisabled: async () => {},
  setAutoApprove: async () => {},
  openConfig: async () => {},
  showLog: async () => {},
};
