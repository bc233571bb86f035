import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnection } from './mcp-connection.js';
import { McpRequestError, McpServerUnavailableError, McpTimeoutError } from './mcp-errors.js';
import { snapshotOf, unknownServerMessage, type HubContext, type HubSlot } from './mcp-hub-state.js';
import { mcpSdk } from './mcp-sdk-loader.js';
import { describeStatus, unavailableMessage } from './mcp-server-snapshot.js';
import { isSignInRequired, messageOf } from './mcp-transport.js';

/** Per-call options. */
export interface McpCallOptions {
  readonly signal?: AbortSignal;
  /** Progress the server reports (notifications/progress); each one also restarts the call's timeout. */
  readonly onProgress?: (progress: McpProgress) => void;
}

/** One `notifications/progress` of a call. */
export interface McpProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/**
 * Requests to connected servers — tools, resources, prompts — with each server's timeout, and
 * their failures turned into errors that say what to do (timed out, disconnected, sign in again).
 */
export class McpServerCalls {
  constructor(
    private readonly context: HubContext,
    /** The tokens stopped working: the server goes back to waiting for a sign-in. */
    private readonly signInRequired: (slot: HubSlot, reason: string) => void,
  ) {}

  /** Calls a tool with the server's timeout; throws McpServerUnavailableError or McpTimeoutError. */
  async callTool(server: string, tool: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<CallToolResult> {
    const { slot, connection } = this.requireConnected(server);
    const timeoutSeconds = slot.config!.timeoutSeconds;
    const onProgress = options.onProgress;
    try {
      const result = await connection.client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: timeoutSeconds * 1000,
        ...(options.signal ? { signal: options.signal } : {}),
        // A call that reports progress is alive: each report restarts its timeout.
        ...(onProgress
          ? {
              resetTimeoutOnProgress: true,
              onprogress: (p) =>
                onProgress({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) }),
            }
          : {}),
      });
      // A tool that changed the server's tools (it sent tools/list_changed before answering) is followed by the new list.
      await connection.listsSettled();
      // Servers from before 2024-11-05 answer with { toolResult }; show it as text.
      if (!('content' in result)) return { content: [{ type: 'text', text: JSON.stringify(result.toolResult) }] };
      return result as CallToolResult;
    } catch (error) {
      throw this.callError(error, slot, `tool ${tool}`, timeoutSeconds, options.signal);
    }
  }

  /** Reads a resource with the server's timeout. */
  async readResource(server: string, uri: string, options: McpCallOptions = {}): Promise<ReadResourceResult> {
    const { slot, connection } = this.requireConnected(server);
    const timeoutSeconds = slot.config!.timeoutSeconds;
    try {
      return await connection.client.readResource({ uri }, { timeout: timeoutSeconds * 1000, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (error) {
      throw this.callError(error, slot, `resource ${uri}`, timeoutSeconds, options.signal);
    }
  }

  /** A server's prompt filled in with `args`, as the text of its messages (what a slash command sends). */
  async getPrompt(server: string, name: string, args: Readonly<Record<string, string>>, options: McpCallOptions = {}): Promise<string> {
    const { slot, connection } = this.requireConnected(server);
    const timeoutSeconds = slot.config!.timeoutSeconds;
    try {
      const result = await connection.client.getPrompt(
        { name, arguments: { ...args } },
        { timeout: timeoutSeconds * 1000, ...(options.signal ? { signal: options.signal } : {}) },
      );
      return result.messages
        .map((message) =>
          message.content.type === 'text'
            ? message.content.text
            : message.content.type === 'resource' && 'text' in message.content.resource
              ? String(message.content.resource.text)
              : `[${message.content.type} content left out]`,
        )
        .join('\n\n');
    } catch (error) {
      throw this.callError(error, slot, `prompt ${name}`, timeoutSeconds, options.signal);
    }
  }

  private requireConnected(name: string): { slot: HubSlot; connection: McpConnection } {
    const slot = this.context.slots.get(name);
    if (!slot) throw new McpServerUnavailableError(unknownServerMessage(this.context, name));
    if (slot.status !== 'connected' || !slot.connection) throw new McpServerUnavailableError(unavailableMessage(snapshotOf(slot)));
    return { slot, connection: slot.connection };
  }

  private callError(error: unknown, slot: HubSlot, what: string, timeoutSeconds: number, signal: AbortSignal | undefined): Error {
    if (signal?.aborted) return error instanceof Error ? error : new Error(String(error));
    if (this.context.signInPorts && slot.config?.transport.type !== 'stdio' && isSignInRequired(error)) {
      // The tokens stopped working and could not be refreshed (revoked): back to signing in.
      const connection = slot.connection;
      slot.connection = undefined;
      slot.generation++;
      void connection?.close();
      this.signInRequired(slot, 'The server no longer accepts the sign-in (the tokens were revoked or expired and could not be refreshed).');
      return new McpServerUnavailableError(`MCP server "${slot.name}" needs you to sign in again before ${what} can be used.`);
    }
    const { ErrorCode, McpError } = mcpSdk();
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new McpTimeoutError(
        `The MCP ${what} on server "${slot.name}" did not answer within ${timeoutSeconds} s (the server's timeout), so the request was cancelled. Try again with a smaller request, or ask the user to raise "timeout" for this server.`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new McpServerUnavailableError(`MCP server "${slot.name}" closed the connection during the call to ${what}; ${describeStatus(snapshotOf(slot))}`);
    }
    return new McpRequestError(`MCP server "${slot.name}" failed the call to ${what}: ${messageOf(error)}`, error instanceof McpError ? error.code : undefined);
  }
}
