import { McpRequestError, McpServerUnavailableError, McpTimeoutError } from './mcp-errors.js';
import type { ToolOutcome } from '../tool-kit/tool-spec.js';

/** Maps a failed hub call to an outcome: a bad request is the model's mistake; a down or slow server is not. */
export function mcpCallFailure(error: unknown): ToolOutcome {
  if (error instanceof McpServerUnavailableError || error instanceof McpTimeoutError) {
    return { kind: 'error', error: error.message, mistake: false };
  }
  if (error instanceof McpRequestError) return { kind: 'error', error: error.message, mistake: error.isCallerMistake };
  return { kind: 'error', error: `The MCP call failed: ${(error as Error).message}`, mistake: false };
}
