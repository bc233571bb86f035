import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServerConfig } from './mcp-config.js';
import { mcpSdk } from './mcp-sdk-loader.js';
import { connectMcpClient, messageOf, type McpConnectOptions, type McpTransportKind } from './mcp-transport.js';

/** A tool a server offers, as the model sees it. */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** The JSON Schema of the tool's `structuredContent`, when it declares one. */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
}

/** A resource with a fixed URI. */
export interface McpResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** A family of resources addressed by an RFC 6570 URI template. */
export interface McpResourceTemplateInfo {
  readonly uriTemplate: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** A prompt a server offers; the panel and the REPL show it as a slash command of the server. */
export interface McpPromptInfo {
  readonly name: string;
  readonly description?: string;
  readonly arguments: readonly { readonly name: string; readonly description?: string; readonly required: boolean }[];
}

/** A folder the client offers the server as a root (`roots/list`). */
export interface McpRoot {
  /** A file:// URI. */
  readonly uri: string;
  readonly name?: string;
}

/** What a live connection reports back to its owner and asks it. */
interface McpConnectionHandlers {
  /** Answers the server's `elicitation/create` (form mode); `signal` aborts when the server withdraws it. */
  onElicit(params: { readonly message: string; readonly requestedSchema: unknown }, signal: AbortSignal): Promise<Record<string, unknown> & { action: string }>;
  /** The roots offered now (`roots/list`). */
  listRoots(): readonly McpRoot[];
  onListsChanged(): void;
  onLog(level: string, text: string): void;
  /** The transport closed without close() being called (the process exited, the socket dropped). */
  onUnexpectedClose(): void;
}

/** Most pages fetched for one list; a server that never stops paginating is cut off here. */
const MAX_PAGES = 50;

/** One connected server: its Client, its lists (refreshed on list_changed), and its notifications. */
export class McpConnection {
  tools: readonly McpToolInfo[] = [];
  resources: readonly McpResourceInfo[] = [];
  resourceTemplates: readonly McpResourceTemplateInfo[] = [];
  prompts: readonly McpPromptInfo[] = [];
  private closing = false;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;

  private constructor(
    readonly client: Client,
    readonly kind: McpTransportKind,
    private readonly handlers: McpConnectionHandlers,
  ) {}

  /** Connects, then lists tools, resources and templates. */
  static async open(config: McpServerConfig, options: Omit<McpConnectOptions, 'setup'>, handlers: McpConnectionHandlers): Promise<McpConnection> {
    let connection: McpConnection | undefined;
    const connected = await connectMcpClient(config.transport, {
      ...options,
      setup: (client) => {
        const {
          ElicitRequestSchema,
          ListRootsRequestSchema,
          LoggingMessageNotificationSchema,
          PromptListChangedNotificationSchema,
          ResourceListChangedNotificationSchema,
          ToolListChangedNotificationSchema,
        } = mcpSdk();
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => connection?.scheduleRefresh());
        client.setNotificationHandler(ResourceListChangedNotificationSchema, () => connection?.scheduleRefresh());
        client.setNotificationHandler(PromptListChangedNotificationSchema, () => connection?.scheduleRefresh());
        // Only form mode is declared, so the SDK refuses a URL-mode request before it gets here.
        client.setRequestHandler(ElicitRequestSchema, async (request, extra) =>
          request.params.mode === 'url' ? { action: 'decline' } : handlers.onElicit(request.params, extra.signal),
        );
        client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: handlers.listRoots().map((root) => ({ ...root })) }));
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
          const { level, logger, data } = notification.params;
          const text = typeof data === 'string' ? data : JSON.stringify(data);
          handlers.onLog(level, logger ? `${logger}: ${text}` : text);
        });
        client.onclose = () => {
          if (connection && !connection.closing) {
            connection.closing = true;
            handlers.onUnexpectedClose();
          }
        };
        client.onerror = (error) => handlers.onLog('error', `transport: ${messageOf(error)}`);
      },
    });
    connection = new McpConnection(connected.client, connected.kind, handlers);
    try {
      await connection.refresh();
    } catch (error) {
      await connection.close();
      throw new Error(`connected, but listing its tools failed: ${messageOf(error)}`);
    }
    return connection;
  }

  /** The server's own usage notes (from initialize), if any. */
  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  /** The server's name, title and version from initialize. */
  get serverInfo(): { readonly name: string; readonly title?: string; readonly version: string } | undefined {
    return this.client.getServerVersion();
  }

  /** Re-reads all lists now. */
  async refresh(): Promise<void> {
    const capabilities = this.client.getServerCapabilities() ?? {};
    const [tools, resources, templates, prompts] = await Promise.all([
      capabilities.tools ? this.listTools() : Promise.resolve([]),
      capabilities.resources ? this.listResources().catch(() => []) : Promise.resolve([]),
      capabilities.resources ? this.listResourceTemplates().catch(() => []) : Promise.resolve([]),
      capabilities.prompts ? this.listPrompts().catch(() => []) : Promise.resolve([]),
    ]);
    this.tools = tools;
    this.resources = resources;
    this.resourceTemplates = templates;
    this.prompts = prompts;
  }

  /**
   * Resolves once the lists are current: a refresh under way (a list_changed that arrived) has
   * finished. A notification read together with a response is handled a tick later, so one turn
   * of the event loop passes first. A server that keeps announcing changes is waited for a few
   * refreshes at most.
   */
  async listsSettled(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (let round = 0; this.refreshing && round < 3; round++) await this.refreshing;
  }

  /** Tells the server the roots changed (it asks `roots/list` again); a failure is only logged. */
  rootsChanged(): void {
    this.client.sendRootsListChanged().catch((error: unknown) => this.handlers.onLog('error', `roots/list_changed failed: ${messageOf(error)}`));
  }

  /** Ends the connection deliberately (no reconnect follows). */
  async close(): Promise<void> {
    this.closing = true;
    await this.client.close().catch(() => {});
  }

  // Notifications can arrive in bursts; one refresh runs at a time and one more follows if needed.
  private scheduleRefresh(): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = this.refresh()
      .then(
        () => this.handlers.onListsChanged(),
        (error: unknown) => this.handlers.onLog('error', `refreshing lists failed: ${messageOf(error)}`),
      )
      .finally(() => {
        this.refreshing = undefined;
        if (this.refreshAgain && !this.closing) {
          this.refreshAgain = false;
          this.scheduleRefresh();
        }
      });
  }

  private listTools(): Promise<McpToolInfo[]> {
    return allPages(
      (cursor) => this.client.listTools(cursor),
      (result) => result.tools,
      (tool) => ({
        name: tool.name,
        ...(tool.title ? { title: tool.title } : {}),
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as Record<string, unknown>,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
      }),
    );
  }

  private listResources(): Promise<McpResourceInfo[]> {
    return allPages(
      (cursor) => this.client.listResources(cursor),
      (result) => result.resources,
      (r) => ({ uri: r.uri, name: r.name, ...(r.description ? { description: r.description } : {}), ...(r.mimeType ? { mimeType: r.mimeType } : {}) }),
    );
  }

  private listResourceTemplates(): Promise<McpResourceTemplateInfo[]> {
    return allPages(
      (cursor) => this.client.listResourceTemplates(cursor),
      (result) => result.resourceTemplates,
      (t) => ({
        uriTemplate: t.uriTemplate,
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        ...(t.mimeType ? { mimeType: t.mimeType } : {}),
      }),
    );
  }

  private listPrompts(): Promise<McpPromptInfo[]> {
    return allPages(
      (cursor) => this.client.listPrompts(cursor),
      (result) => result.prompts,
      (p) => ({
        name: p.name,
        ...(p.description ? { description: p.description } : {}),
        arguments: (p.arguments ?? []).map((a) => ({ name: a.name, ...(a.description ? { description: a.description } : {}), required: a.required === true })),
      }),
    );
  }
}

/** Every item of a paginated MCP list, up to MAX_PAGES pages (a server that never stops paginating is cut off). */
async function allPages<Page extends { nextCursor?: string | undefined }, Item, Info>(
  fetch: (cursor: { cursor: string } | undefined) => Promise<Page>,
  itemsOf: (page: Page) => readonly Item[],
  convert: (item: Item) => Info,
): Promise<Info[]> {
  const all: Info[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetch(cursor ? { cursor } : undefined);
    all.push(...itemsOf(result).map(convert));
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return all;
}
